"""The pair classifier: standardized logistic regression over training.learn.features, stored as data.

Why logistic regression and not gradient boosting: its whole state is a handful of numbers (a mean
and a scale per feature, a coefficient per feature, an intercept), so a stored version is readable
JSON that an operator can inspect and that cannot run code on load; on the judged pools of the bench
boosting was not clearly better (see README). ``class_weight="balanced"`` because judged samples of
a crawl's candidates are mostly one class.

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

FORMAT, VERSION = "pair-classifier", 1
MIN_PER_LABEL = 3  # below this a fold has nothing to learn one side from

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
        X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=int)
        if X.ndim != 2 or X.shape[1] != len(FEATURE_NAMES):
            raise ValueError(f"expected rows of {len(FEATURE_NAMES)} pair features, got shape {X.shape}")
        counts = np.bincount(y, minlength=2)
        if len(counts) != 2 or counts.min() < MIN_PER_LABEL:
            raise ValueError(f"training needs at least {MIN_PER_LABEL} judged pairs of each label "
                             f"(parallel: {counts[1] if len(counts) > 1 else 0}, not parallel: {counts[0]})")
        pipeline = Pipeline([("scale", StandardScaler()),
                             ("model", LogisticRegression(C=C, class_weight="balanced", max_iter=2000,
                                                          random_state=seed))])
        pipeline.fit(X, y)
        return cls(pipeline, FEATURE_NAMES, {"seed": seed, "C": C, "n_train": int(len(y)),
                                             "n_parallel": int(counts[1])})

    def probability(self, X) -> np.ndarray:
        """P(parallel) of each row."""
        X = np.asarray(X, dtype=float)
        if len(X) == 0:
            return np.zeros(0)
        positive = list(self.pipeline.classes_).index(1)
        return self.pipeline.predict_proba(X)[:, positive]

    def predict(self, X) -> np.ndarray:
        return (self.probability(X) >= 0.5).astype(int)

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
        if tuple(names) != FEATURE_NAMES:
            raise ModelDataError("pair-classifier: its feature names are not this code's features "
                                 f"({len(names)} stored, {len(FEATURE_NAMES)} expected); train it again")
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
