"""Is a new model at least as good as the current one? Cross-validation on the judged items.

Both models answer on the same held-out folds (StratifiedKFold, shuffled with a stored seed):
the new one is trained afresh on each fold's training part, the current one answers as it stands
(it may have seen some of those items when it was trained, which can only favour it: a
conservative comparison). The score is F1 of the positive class ("parallel", "translation link",
"bilingual") per fold.

Promotion rule: promote when mean F1 over folds of the new model ≥ the current's − tolerance
(tolerance 0: "not worse"). When no model of the kind was promoted yet, the current one is the
baseline the system runs without a classifier (the filter's ``kept``, the shipped Link Predictor,
the default threshold). For the pair classifier the filter stays a contender after a promotion
(training.services.trainers.train_pair_classifier).

``compare_scores`` is the rule for a model whose *scores* are used, not only a yes/no: the Link
Predictor ranks a page's links and the detector reads those scoring at least its threshold. Both
are measured per fold, the ranking by ROC AUC and the decision by F1 at the threshold the user of
the scores applies, and the new model is promoted only when it is not worse on either: F1 at one
threshold alone promoted a Link Predictor that ranked held-out links worse (README, bench/learning.py).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

import numpy as np
from sklearn.metrics import f1_score, roc_auc_score
from sklearn.model_selection import StratifiedKFold

MAX_FOLDS = 5
TOLERANCE = 0.0

FitPredict = Callable[[np.ndarray, np.ndarray], Sequence[int]]  # (train indices, test indices) → predictions
Predict = Callable[[np.ndarray], Sequence[int]]  # test indices → predictions
FitScore = Callable[[np.ndarray, np.ndarray], Sequence[float]]  # (train, test indices) → scores of the test items
Score = Callable[[np.ndarray], Sequence[float]]  # test indices → scores


@dataclass(frozen=True)
class Comparison:
    folds: int
    new_f1: list[float]
    current_f1: list[float]
    new_mean: float
    current_mean: float
    tolerance: float
    promote: bool

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class ScoreComparison(Comparison):
    threshold: float = 0.5
    new_auc: list[float] = ()
    current_auc: list[float] = ()
    new_auc_mean: float = 0.0
    current_auc_mean: float = 0.0


def fold_count(labels: Sequence[int]) -> int:
    counts = np.bincount(np.asarray(labels, dtype=int), minlength=2)
    return int(min(MAX_FOLDS, counts.min()))


def _folds(y: np.ndarray, seed: int):
    folds = fold_count(y)
    if folds < 2:
        counts = np.bincount(y, minlength=2)
        raise ValueError(f"cross-validation needs at least 2 judged items of each label "
                         f"(positive: {counts[1]}, negative: {counts[0]})")
    # stratified: every test fold holds both labels, so its AUC is defined
    return folds, StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed).split(np.zeros(len(y)), y)


def compare(labels: Sequence[int], fit_predict_new: FitPredict, predict_current: Predict, *, seed: int = 0,
            tolerance: float = TOLERANCE) -> Comparison:
    y = np.asarray(labels, dtype=int)
    folds, splits = _folds(y, seed)
    new, current = [], []
    for train, test in splits:
        new.append(float(f1_score(y[test], np.asarray(fit_predict_new(train, test)), zero_division=0)))
        current.append(float(f1_score(y[test], np.asarray(predict_current(test)), zero_division=0)))
    new_mean, current_mean = float(np.mean(new)), float(np.mean(current))
    return Comparison(folds, new, current, new_mean, current_mean, tolerance,
                      promote=new_mean >= current_mean - tolerance)


def compare_scores(labels: Sequence[int], fit_score_new: FitScore, score_current: Score, *, threshold: float,
                   seed: int = 0, tolerance: float = TOLERANCE) -> ScoreComparison:
    """Per fold: ROC AUC of the scores and F1 of "score ≥ threshold"; promote when neither mean is worse."""
    y = np.asarray(labels, dtype=int)
    folds, splits = _folds(y, seed)
    f1s, aucs = {"new": [], "current": []}, {"new": [], "current": []}
    for train, test in splits:
        for who, scores in (("new", fit_score_new(train, test)), ("current", score_current(test))):
            scores = np.asarray(scores, dtype=float)
            f1s[who].append(float(f1_score(y[test], (scores >= threshold).astype(int), zero_division=0)))
            aucs[who].append(float(roc_auc_score(y[test], scores)))
    mean = {k: float(np.mean(v)) for k, v in f1s.items()}
    auc = {k: float(np.mean(v)) for k, v in aucs.items()}
    promote = mean["new"] >= mean["current"] - tolerance and auc["new"] >= auc["current"] - tolerance
    return ScoreComparison(folds, f1s["new"], f1s["current"], mean["new"], mean["current"], tolerance, promote,
                           threshold, aucs["new"], aucs["current"], auc["new"], auc["current"])
