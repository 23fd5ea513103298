"""Link Predictor: probability that a link points to the same content in the other language.

Barbosa et al. 2011, Sec. 2.1: "We use probabilistic SVM (Platt, 1999)" over tokens of five link
contexts. Choice: a LinearSVC wrapped in CalibratedClassifierCV(method="sigmoid"), which *is* Platt
scaling fitted on held-out folds. A linear SVM suits sparse binary text features, trains in
milliseconds, and the calibration folds are deterministic (StratifiedKFold without shuffling);
SVC(probability=True) would do the same Platt fit but with a slower kernel solver and libsvm's own
internal randomness. class_weight="balanced" because translation links are a few percent of links.
A trained predictor is stored as data, never pickled: frontier/classifiers/link_model.py (LinkModel) holds its
numbers and scores links with them; the shipped one is frontier/classifiers/shipped_link_predictor.py.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
from sklearn.calibration import CalibratedClassifierCV
from sklearn.feature_extraction import DictVectorizer
from sklearn.svm import LinearSVC

from frontier.classifiers.link_features import LinkContext, extract_link_features

def _feature_dicts(links: Sequence[LinkContext]) -> list[dict[str, int]]:
    for i, link in enumerate(links):
        if not isinstance(link, LinkContext):
            raise TypeError(f"link #{i} is a {type(link).__name__}, expected LinkContext")
    return [dict.fromkeys(extract_link_features(link), 1) for link in links]


class LinkPredictor:
    def __init__(self, vectorizer: DictVectorizer, model: CalibratedClassifierCV, meta: dict | None = None):
        self.vectorizer = vectorizer
        self.model = model
        self.meta = dict(meta or {})

    @classmethod
    def train(cls, links: Sequence[LinkContext], labels: Sequence[int], seed: int = 0, C: float = 0.5) -> "LinkPredictor":
        y = np.asarray(labels, dtype=int)
        if len(links) != len(y):
            raise ValueError(f"{len(links)} links but {len(y)} labels")
        if set(np.unique(y)) != {0, 1}:
            raise ValueError("training needs both labels, 1 (translation link) and 0 (other link)")
        folds = int(min(5, np.bincount(y).min()))
        if folds < 2:
            raise ValueError("training needs at least 2 links of each label for Platt calibration")
        vectorizer = DictVectorizer(dtype=np.float32)
        X = vectorizer.fit_transform(_feature_dicts(links))
        svm = LinearSVC(C=C, class_weight="balanced", random_state=seed, max_iter=10000)
        model = CalibratedClassifierCV(svm, method="sigmoid", cv=folds)
        model.fit(X, y)
        meta = {"seed": seed, "C": C, "n_train": int(len(y)), "n_positive": int(y.sum())}
        return cls(vectorizer, model, meta)

    def predict_proba(self, links: Sequence[LinkContext]) -> np.ndarray:
        """P(translation link) for each link, shape (n,); an empty input gives an empty array."""
        if len(links) == 0:
            return np.zeros(0)
        X = self.vectorizer.transform(_feature_dicts(links))
        positive = list(self.model.classes_).index(1)
        return self.model.predict_proba(X)[:, positive]
