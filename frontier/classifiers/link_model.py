"""The Link Predictor as data: vocabulary and the numbers of its calibrated linear SVMs.

frontier.classifiers.link_predictor trains a LinearSVC inside CalibratedClassifierCV(method="sigmoid")
(Barbosa et al. 2011, Sec. 2.1: a probabilistic SVM, Platt 1999). The fitted model is k folds, each a
linear SVM (weights w over the DictVectorizer's vocabulary, intercept c) and a Platt sigmoid (a, b):
P(translation | x) = mean over folds of 1 / (1 + exp(a·(w·x + c) + b)). Those numbers and the
vocabulary are all it takes, so a retrained version is stored as JSON (``to_data``) and scored here
with numpy (``LinkModel.predict_proba``, the same interface as LinkPredictor), never unpickled.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.sparse import csr_matrix

from frontier.classifiers.link_features import LinkContext
from frontier.classifiers.link_predictor import LinkPredictor, _feature_dicts
from crawlweb.model_data import (
    ModelDataError,
    flat_mapping,
    list_of,
    number,
    parse_model_data,
    record,
    register_format,
    text,
)

FORMAT, VERSION = "link-predictor-data", 1

register_format(FORMAT, VERSION, {
    "vocabulary": list_of(text, min_length=1),
    "folds": list_of(record({"weights": list_of(number), "intercept": number, "sigmoid_a": number,
                             "sigmoid_b": number}), min_length=1),
    "training": flat_mapping,
})


class LinkModel:
    def __init__(self, vocabulary: Sequence[str], weights: np.ndarray, intercepts: np.ndarray,
                 sigmoid: np.ndarray, training: dict | None = None):
        self.vocabulary = list(vocabulary)
        self.index = {name: i for i, name in enumerate(self.vocabulary)}
        self.weights, self.intercepts, self.sigmoid = weights, intercepts, sigmoid  # (k, V), (k,), (k, 2)
        self.training = dict(training or {})

    @classmethod
    def from_predictor(cls, predictor: LinkPredictor, training: dict | None = None) -> LinkModel:
        vocabulary = list(predictor.vectorizer.get_feature_names_out())
        weights, intercepts, sigmoid = [], [], []
        for fold in predictor.model.calibrated_classifiers_:
            svm, (calibrator,) = fold.estimator, fold.calibrators
            if list(svm.classes_) != [0, 1]:
                raise ValueError(f"a Link Predictor fold has classes {list(svm.classes_)}, expected [0, 1]")
            weights.append(np.asarray(svm.coef_[0], dtype=float))
            intercepts.append(float(svm.intercept_[0]))
            sigmoid.append((float(calibrator.a_), float(calibrator.b_)))
        meta = {**{k: v for k, v in predictor.meta.items() if isinstance(v, (int, float, str, bool))},
                **(training or {})}
        return cls(vocabulary, np.vstack(weights), np.asarray(intercepts), np.asarray(sigmoid), meta)

    @classmethod
    def train(cls, links: Sequence[LinkContext], labels: Sequence[int], seed: int = 0) -> LinkModel:
        return cls.from_predictor(LinkPredictor.train(links, labels, seed=seed))

    def _matrix(self, links: Sequence[LinkContext]) -> csr_matrix:
        """Binary features as a sparse matrix (a crawl's links times a vocabulary of thousands)."""
        rows, columns = [], []
        for row, features in enumerate(_feature_dicts(links)):
            for name in features:
                column = self.index.get(name)
                if column is not None:
                    rows.append(row)
                    columns.append(column)
        return csr_matrix((np.ones(len(rows)), (rows, columns)), shape=(len(links), len(self.vocabulary)))

    def predict_proba(self, links: Sequence[LinkContext]) -> np.ndarray:
        """P(translation link) for each link, shape (n,)."""
        if len(links) == 0:
            return np.zeros(0)
        decision = self._matrix(links) @ self.weights.T + self.intercepts  # (n, k)
        a, b = self.sigmoid[:, 0], self.sigmoid[:, 1]
        return (1.0 / (1.0 + np.exp(a * decision + b))).mean(axis=1)

    def to_data(self) -> dict:
        folds = [{"weights": [float(w) for w in self.weights[i]], "intercept": float(self.intercepts[i]),
                  "sigmoid_a": float(self.sigmoid[i, 0]), "sigmoid_b": float(self.sigmoid[i, 1])}
                 for i in range(len(self.intercepts))]
        return {"format": FORMAT, "version": VERSION, "vocabulary": list(self.vocabulary), "folds": folds,
                "training": dict(self.training)}

    @classmethod
    def from_data(cls, stored) -> LinkModel:
        data = parse_model_data(stored, FORMAT)
        size = len(data["vocabulary"])
        if len(set(data["vocabulary"])) != size:
            raise ModelDataError("link-predictor-data.vocabulary: repeated feature names")
        for i, fold in enumerate(data["folds"]):
            if len(fold["weights"]) != size:
                raise ModelDataError(f"link-predictor-data.folds[{i}].weights: {len(fold['weights'])} values "
                                     f"for a vocabulary of {size}")
        folds = data["folds"]
        return cls(data["vocabulary"], np.asarray([f["weights"] for f in folds], dtype=float),
                   np.asarray([f["intercept"] for f in folds], dtype=float),
                   np.asarray([(f["sigmoid_a"], f["sigmoid_b"]) for f in folds], dtype=float), data["training"])
