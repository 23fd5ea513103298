"""The pair classifier: a second opinion on the pairs the method's filter keeps, stored as data.

It reviews the filter's kept pairs and removes those it judges not parallel (training.services.promoted.
PairDecider); a pair the filter removed stays removed. Why: on the real development web the filter's
errors are nearly all pairs it keeps wrongly (the learning bench's held-out crawl, seed 1: 48 false
positives, no false negative; its training crawl 47 and 4): boilerplate-only and partial pages under a
translated frame. So it is trained on the judged pairs the filter kept, and compared as it decides.

It reads a named part of training.learn.features (``CLASSIFIER_FEATURES``): Def. 9 similarity,
length ratio, STRAND difference, languages and scripts, pattern and site credibility (what the issue
names), and what the evaluators' thin-page rule reads (the shorter body, the dictionary's cover of it,
translated sentences and words: training.learn.translated_content), and how much of the two bodies
aligns sentence by sentence (evaluation.bodies.sentence_alignment: an adapted translation aligns, a page of
its own does not; added in version 3, issue 31). Measured on the judged pools of
three runs of bench/learning.py (seeds 1–3, 329–408 judged pairs), in folds that keep each site whole:
this part 0.942 / 0.913 / 0.955; with the method flags added 0.931 / 0.913 / 0.953; every feature
0.918 / 0.899 / 0.942 (a few hundred judged pairs teach the judged sites, not the rule). Held out, as
the bench measures: this part 0.900 / 0.947 / 0.835 where the filter alone keeps 0.837 / 0.865 / 0.727;
every feature 0.789 / 0.798 / 0.836.

Standardized logistic regression: its whole state is a mean and a scale per feature, a coefficient
per feature and an intercept, so a stored version is readable JSON that an operator can inspect and
that cannot run code on load; boosting was not better on the bench's pools (README). No class
weighting: a removal must be more likely right than wrong among the judged kept pairs (weighting the
few wrong ones up measured 0.931 / 0.906 / 0.938 in the same folds).

``PairClassifier.from_data`` rebuilds the scikit-learn estimator from those numbers (a StandardScaler
and a LogisticRegression with their fitted attributes set), after crawlweb.model_data has
checked that the data is exactly this schema.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

from training.learn.features import FEATURE_NAMES
from training.learn.translated_content import TRANSLATED_CONTENT_FEATURE_NAMES
from crawlweb.model_data import (
    ModelDataError,
    flat_mapping,
    integer,
    list_of,
    number,
    parse_model_data,
    register_format,
    text,
)

FORMAT, VERSION = "pair-classifier", 3  # 3: with the sentence alignment; 2: a second opinion over CLASSIFIER_FEATURES (1: every feature)
CLASSIFIER_FEATURES: tuple[str, ...] = (
    "similarity", "similarity_missing", "length_log_ratio", "length_ratio_missing", "strand_dp", "strand_missing",
    "languages_confirmed", "source_cyrillic", "target_cyrillic", "pattern_credibility", "has_pattern", "site_credibility", "site_credibility_missing",
    "body_shorter_log", "lexicon_min_coverage", *TRANSLATED_CONTENT_FEATURE_NAMES, "alignment_score",
)
COLUMNS = [FEATURE_NAMES.index(name) for name in CLASSIFIER_FEATURES]
MIN_PER_LABEL = 3  # below this a fold has nothing to learn one side from
KEEP_AT = 0.5  # P(parallel) at which a pair the filter kept stays kept

register_format(FORMAT, VERSION, {
    "feature_names": list_of(text, min_length=1), "means": list_of(number), "scales": list_of(number),
    "coefficients": list_of(number), "intercept": number, "classes": list_of(integer), "training": flat_mapping,
})


class PairClassifier:
    def __init__(self, pipeline: Pipeline, feature_names: Sequence[str], training: dict | None = None):
        self.pipeline = pipeline
        self.feature_names = tuple(feature_names)
        self.training = dict(training or {})

    @classmethod
    def train(cls, X, y, *, seed: int = 0, C: float = 1.0) -> PairClassifier:
        """``X``: rows of every pair feature (training.learn.features.pair_features) of judged pairs the
        filter kept; ``y``: their labels."""
        X, y = _columns(X), np.asarray(y, dtype=int)
        counts = np.bincount(y, minlength=2)
        if len(counts) != 2 or counts.min() < MIN_PER_LABEL:
            raise ValueError(f"training needs at least {MIN_PER_LABEL} judged pairs of each label "
                             f"(parallel: {counts[1] if len(counts) > 1 else 0}, not parallel: {counts[0]})")
        pipeline = Pipeline([("scale", StandardScaler()),
                             ("model", LogisticRegression(C=C, max_iter=2000, random_state=seed))])
        pipeline.fit(X, y)
        return cls(pipeline, CLASSIFIER_FEATURES, {"seed": seed, "C": C, "n_train": int(len(y)),
                                             "n_parallel": int(counts[1])})

    def probability(self, X) -> np.ndarray:
        """P(parallel) of each row of every pair feature."""
        if len(X) == 0:
            return np.zeros(0)
        X = _columns(X)
        positive = list(self.pipeline.classes_).index(1)
        return self.pipeline.predict_proba(X)[:, positive]

    def predict(self, X) -> np.ndarray:
        return (self.probability(X) >= KEEP_AT).astype(int)

    def keeps(self, X, filter_kept) -> np.ndarray:
        """The second opinion's decision: of the rows the filter kept (1), those not judged not parallel."""
        return np.asarray(filter_kept, dtype=int) & self.predict(X)

    def to_data(self) -> dict:
        scaler, model = self.pipeline.named_steps["scale"], self.pipeline.named_steps["model"]
        return {"format": FORMAT, "version": VERSION, "feature_names": list(self.feature_names),
                "means": [float(v) for v in scaler.mean_], "scales": [float(v) for v in scaler.scale_],
                "coefficients": [float(v) for v in model.coef_[0]], "intercept": float(model.intercept_[0]),
                "classes": [int(c) for c in model.classes_], "training": dict(self.training)}

    @classmethod
    def from_data(cls, stored) -> PairClassifier:
        data = parse_model_data(stored, FORMAT)
        names = data["feature_names"]
        if tuple(names) != CLASSIFIER_FEATURES:
            raise ModelDataError("pair-classifier: its feature names are not this code's features "
                                 f"({len(names)} stored, {len(CLASSIFIER_FEATURES)} expected); train it again")
        n = len(names)
        for key in ("means", "scales", "coefficients"):
            if len(data[key]) != n:
                raise ModelDataError(f"pair-classifier.{key}: {len(data[key])} values for {n} features")
        if data["classes"] != [0, 1]:
            raise ModelDataError(f"pair-classifier.classes: expected [0, 1], got {data['classes']}")
        if any(s <= 0 for s in data["scales"]):
            raise ModelDataError("pair-classifier.scales: every scale must be positive")
        scaler = StandardScaler()
        scaler.mean_ = np.asarray(data["means"], dtype=float)
        scaler.scale_ = np.asarray(data["scales"], dtype=float)
        scaler.var_ = scaler.scale_ ** 2
        scaler.n_features_in_ = n
        scaler.n_samples_seen_ = int(data["training"].get("n_train") or 0)
        model = LogisticRegression()
        model.coef_ = np.asarray([data["coefficients"]], dtype=float)
        model.intercept_ = np.asarray([data["intercept"]], dtype=float)
        model.classes_ = np.asarray(data["classes"])
        model.n_features_in_ = n
        return cls(Pipeline([("scale", scaler), ("model", model)]), names, data["training"])


def _columns(X) -> np.ndarray:
    """The classifier's features out of rows of every pair feature."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != len(FEATURE_NAMES):
        raise ValueError(f"expected rows of {len(FEATURE_NAMES)} pair features, got shape {X.shape}")
    return X[:, COLUMNS]
