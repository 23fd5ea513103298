"""Backlink and Forward-Link classifiers (Barbosa et al. 2011, Sec. 2.2).

Both are Naive Bayes models over the link neighborhood in four contexts kept apart by a prefix:
URL without the host (``path:``), host (``host:``, where country domains such as .rs matter),
anchor (``anchor:``) and text around the link (``around:``); stop words removed, words stemmed.
They are learned during the crawl from links that led to relevant / non-relevant pages; the
frontier then places each link in a layer by its probability (``layer_for_probability``).

Each context gets one vote (``context_weights``): a word is present or not, and the words of one
context share a weight of 1. Raw counts let the longest context decide: the text around a link is
some twenty words, most of them the anchors of the neighbouring links in a list (other sites'
names), while the URL that tells "/en/" from "/" is one or two tokens. Measured on crawls of the
test web, the Forward-Link classifier's AUC on the links still in the frontier went from 0.73
with counts to 0.95 with one vote per context.
The same class serves both roles: the lead trains one instance on backlink pages and one on
forward pages.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from sklearn.feature_extraction import DictVectorizer
from sklearn.naive_bayes import MultinomialNB

from frontier.classifiers.text_normalize import Normalizer
from frontier.classifiers.tokens import host_words, path_words, words
from crawlweb.model_data import (
    ModelDataError, integer, list_of, number, parse_model_data, register_format, text,
)

# Stored as data (crawlweb/model_data.py): the vocabulary and the Naive Bayes log-probabilities,
# never a pickle, so a row of the database cannot run code in the workers that load it.
FORMAT, VERSION = "link-classifier-data", 1
PICKLED_MAGIC = b"LINKNB\x00"  # what versions before stored: pickled objects, refused now
register_format(FORMAT, VERSION, {
    "pair": list_of(text, min_length=2), "alpha": number, "weighting": text,
    "vocabulary": list_of(text), "classes": list_of(integer, min_length=2),
    "class_log_prior": list_of(number), "feature_log_prob": list_of(list_of(number)),
})
PRIMARY, SECONDARY, RESERVE = 1, 2, 3


@dataclass(frozen=True)
class LinkNeighborhood:
    url: str
    anchor_text: str = ""
    text_around: str = ""

    def __post_init__(self):
        if not isinstance(self.url, str) or not self.url.strip():
            raise ValueError(f"LinkNeighborhood needs a non-empty url, got {self.url!r}")


class ModelBytesError(ValueError):
    """Stored classifier bytes are foreign, damaged or of another version."""


def neighborhood_features(n: LinkNeighborhood, normalize: Normalizer) -> dict[str, int]:
    """Counts of prefixed features in the four contexts (hosts are not stemmed: 'rs' stays 'rs')."""
    feats: dict[str, int] = {}
    groups = (
        ("path", normalize(path_words(n.url))),
        ("host", host_words(n.url)),
        ("anchor", normalize(words(n.anchor_text))),
        ("around", normalize(words(n.text_around))),
    )
    for prefix, tokens in groups:
        for t in tokens:
            key = f"{prefix}:{t}"
            feats[key] = feats.get(key, 0) + 1
    return feats


def context_weights(feats: dict[str, int]) -> dict[str, float]:
    """Presence of each feature, weighted 1/(features of its context): every context sums to 1."""
    per_context: dict[str, int] = {}
    for key in feats:
        context = key.split(":", 1)[0]
        per_context[context] = per_context.get(context, 0) + 1
    return {key: 1.0 / per_context[key.split(":", 1)[0]] for key in feats}


# How features become the model's input: "context" (one vote per context) for models trained
# now; "counts" for models stored before the weighting existed, which must be read as trained.
WEIGHTINGS = {"counts": lambda feats: feats, "context": context_weights}


class LinkClassifier:
    def __init__(self, vectorizer: DictVectorizer, model: MultinomialNB, pair: tuple[str, ...], alpha: float,
                 weighting: str = "context"):
        if weighting not in WEIGHTINGS:
            raise ValueError(f"weighting must be one of {sorted(WEIGHTINGS)}, got {weighting!r}")
        self.vectorizer = vectorizer
        self.model = model
        self.pair = tuple(pair)
        self.alpha = alpha
        self.weighting = weighting
        self._normalize = Normalizer(self.pair)

    def features(self, n: LinkNeighborhood) -> dict[str, float]:
        return WEIGHTINGS[self.weighting](neighborhood_features(n, self._normalize))

    @classmethod
    def train(
        cls,
        neighborhoods: Sequence[LinkNeighborhood],
        labels: Sequence[int],
        pair: tuple[str, str] = ("sr", "en"),
        alpha: float = 1.0,
        weighting: str = "context",
    ) -> "LinkClassifier":
        """labels: 1 = the link led to a relevant page (e.g. a bilingual site), 0 = it did not."""
        y = np.asarray(labels, dtype=int)
        if len(neighborhoods) != len(y):
            raise ValueError(f"{len(neighborhoods)} neighborhoods but {len(y)} labels")
        if set(np.unique(y)) != {0, 1}:
            raise ValueError("training needs links of both labels, 1 (relevant) and 0 (not relevant)")
        # MultinomialNB's alpha=1 is Laplace smoothing.
        classifier = cls(DictVectorizer(), MultinomialNB(alpha=alpha), tuple(pair), alpha, weighting)
        X = classifier.vectorizer.fit_transform([classifier.features(n) for n in neighborhoods])
        classifier.model.fit(X, y)
        return classifier

    def predict_proba(self, neighborhoods: Sequence[LinkNeighborhood]) -> np.ndarray:
        """P(relevant) per link, shape (n,)."""
        if len(neighborhoods) == 0:
            return np.zeros(0)
        X = self.vectorizer.transform([self.features(n) for n in neighborhoods])
        return self.model.predict_proba(X)[:, list(self.model.classes_).index(1)]

    def to_bytes(self) -> bytes:
        """The classifier as JSON data for a database column (from_bytes reads it back)."""
        data = {"format": FORMAT, "version": VERSION, "pair": list(self.pair), "alpha": float(self.alpha),
                "weighting": self.weighting, "vocabulary": [str(f) for f in self.vectorizer.feature_names_],
                "classes": [int(c) for c in self.model.classes_],
                "class_log_prior": [float(v) for v in self.model.class_log_prior_],
                "feature_log_prob": [[float(v) for v in row] for row in self.model.feature_log_prob_]}
        return json.dumps(data, separators=(",", ":")).encode("utf-8")

    @classmethod
    def from_bytes(cls, data: bytes) -> "LinkClassifier":
        """A classifier from to_bytes() data; anything else (a pickle, other JSON) raises ModelBytesError."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise ModelBytesError(f"expected bytes, got {type(data).__name__}")
        data = bytes(data)
        if data.startswith(PICKLED_MAGIC):
            raise ModelBytesError("stored link classifier is a pickle (written by an older version); it is refused "
                                  "because loading it could run code: the crawl trains a new one")
        try:
            params = parse_model_data(data, FORMAT)
            return cls._from_params(params)
        except ModelDataError as exc:
            raise ModelBytesError(f"not a stored link classifier: {exc}") from None

    @classmethod
    def _from_params(cls, params: dict) -> "LinkClassifier":
        vocabulary, classes = params["vocabulary"], params["classes"]
        log_prob = np.asarray(params["feature_log_prob"], dtype=float) if params["feature_log_prob"] else None
        if (len(set(vocabulary)) != len(vocabulary) or log_prob is None
                or log_prob.shape != (len(classes), len(vocabulary)) or len(params["class_log_prior"]) != len(classes)):
            raise ModelDataError("vocabulary, classes and log-probabilities do not fit together")
        if params["weighting"] not in WEIGHTINGS:
            raise ModelDataError(f"unknown weighting {params['weighting']!r}")
        vectorizer = DictVectorizer()
        vectorizer.feature_names_ = list(vocabulary)
        vectorizer.vocabulary_ = {name: i for i, name in enumerate(vocabulary)}
        model = MultinomialNB(alpha=params["alpha"])
        model.classes_ = np.asarray(classes)
        model.class_log_prior_ = np.asarray(params["class_log_prior"], dtype=float)
        model.feature_log_prob_ = log_prob
        model.n_features_in_ = len(vocabulary)
        return cls(vectorizer, model, tuple(params["pair"]), params["alpha"], params["weighting"])


def layer_for_probability(p: float, primary: float = 0.8, secondary: float = 0.5) -> int:
    """1 Primary if p >= primary, 2 Secondary if p >= secondary, else 3 Reserve."""
    if not 0.0 <= secondary <= primary <= 1.0:
        raise ValueError(f"need 0 <= secondary <= primary <= 1, got secondary={secondary}, primary={primary}")
    if p is None or not 0.0 <= float(p) <= 1.0:
        raise ValueError(f"probability must be in [0, 1], got {p!r}")
    if p >= primary:
        return PRIMARY
    if p >= secondary:
        return SECONDARY
    return RESERVE
