"""Link Predictor: probability that a link points to the same content in the other language.

Barbosa et al. 2011, Sec. 2.1: "We use probabilistic SVM (Platt, 1999)" over tokens of five link
contexts. Choice: a LinearSVC wrapped in CalibratedClassifierCV(method="sigmoid"), which *is* Platt
scaling fitted on held-out folds. A linear SVM suits sparse binary text features, trains in
milliseconds, and the calibration folds are deterministic (StratifiedKFold without shuffling);
SVC(probability=True) would do the same Platt fit but with a slower kernel solver and libsvm's own
internal randomness. class_weight="balanced" because translation links are a few percent of links.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Sequence

import joblib
import numpy as np
import sklearn
from sklearn.calibration import CalibratedClassifierCV
from sklearn.feature_extraction import DictVectorizer
from sklearn.svm import LinearSVC

from frontier.classifiers.link_features import LinkContext, extract_link_features

FORMAT = "link-predictor"
VERSION = 1
DEFAULT_MODEL_PATH = Path(__file__).with_name("data") / "link_predictor.joblib"


class ModelFileError(ValueError):
    """A saved model file is missing, foreign or of another version."""


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

    def save(self, path: str | Path) -> None:
        payload = {
            "format": FORMAT,
            "version": VERSION,
            "sklearn": sklearn.__version__,
            "vectorizer": self.vectorizer,
            "model": self.model,
            "meta": self.meta,
        }
        joblib.dump(payload, Path(path), compress=3)

    @classmethod
    def load(cls, path: str | Path) -> "LinkPredictor":
        path = Path(path)
        if not path.is_file():
            raise ModelFileError(f"no link predictor model at {path}")
        try:
            payload = joblib.load(path)
        except Exception as exc:  # joblib raises many kinds on a foreign file
            raise ModelFileError(f"{path} is not a link predictor model file: {exc}") from exc
        if not isinstance(payload, dict) or payload.get("format") != FORMAT:
            raise ModelFileError(f"{path} is not a link predictor model file")
        if payload.get("version") != VERSION:
            raise ModelFileError(
                f"{path} holds link predictor version {payload.get('version')!r}; this code reads "
                f"version {VERSION}. Rebuild it with scripts/train_link_predictor.py"
            )
        return cls(payload["vectorizer"], payload["model"], payload.get("meta"))


@lru_cache(maxsize=1)
def default_link_predictor() -> LinkPredictor:
    """The shipped starting model (rebuilt by scripts/train_link_predictor.py), loaded once.

    The instance is shared: use it read-only (train a new LinkPredictor to change it)."""
    return LinkPredictor.load(DEFAULT_MODEL_PATH)
