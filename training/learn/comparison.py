"""Is a new model at least as good as the current one? Cross-validation on the judged items.

Both models answer on the same held-out folds (StratifiedKFold, shuffled with a stored seed):
the new one is trained afresh on each fold's training part, the current one answers as it stands
(it may have seen some of those items when it was trained, which can only favour it: a
conservative comparison). The score is F1 of the positive class ("parallel", "translation link",
"bilingual") per fold.

Folds by site (``groups``): the items of one site share a template, a language switch and a
way of naming pages, so a model tested on a site whose other pages it was trained on measures
how well it remembers that site, not how it will do on the next crawl's sites. With the site of
each item given, the folds keep each site whole (StratifiedGroupKFold) whenever that leaves every
training part enough of each label to learn from; otherwise (one site, or a site holding nearly
all of one label) they fall back to items shuffled across sites, and ``grouped`` says which.
In bench/learning.py, folds across sites measured a classifier 0.955 against the filter's 0.955 and
promoted it; on the held-out sites it kept 0.803 where the filter keeps 0.885. Folds by site
measured it 0.87–0.93 against the filter's 0.98.

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
from sklearn.model_selection import StratifiedGroupKFold, StratifiedKFold

MAX_FOLDS = 5
TOLERANCE = 0.0
MIN_TRAIN_PER_LABEL = 3  # a grouped fold whose training part has fewer of a label cannot learn it

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
    grouped: bool = False  # folds kept each site whole

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


def _grouped_folds(y: np.ndarray, groups: Sequence, folds: int, seed: int, both_in_test: bool) -> list | None:
    """Folds that keep each group whole, or None when they would leave a training part unable to learn a
    label (or, ``both_in_test``, a test part without both labels: its AUC would be undefined)."""
    codes = np.unique(np.asarray([str(g) for g in groups]), return_inverse=True)[1]
    folds = min(folds, int(codes.max()) + 1)
    if folds < 2:
        return None
    splitter = StratifiedGroupKFold(n_splits=folds, shuffle=True, random_state=seed)
    splits = list(splitter.split(np.zeros(len(y)), y, codes))
    for train, test in splits:
        too_few_to_learn = np.bincount(y[train], minlength=2).min() < MIN_TRAIN_PER_LABEL
        if too_few_to_learn or (both_in_test and len(set(y[test])) < 2):
            return None
    return splits


def _folds(y: np.ndarray, seed: int, groups: Sequence | None = None, both_in_test: bool = False):
    """(fold count, [(train, test)], grouped)."""
    folds = fold_count(y)
    if folds < 2:
        counts = np.bincount(y, minlength=2)
        raise ValueError(f"cross-validation needs at least 2 judged items of each label "
                         f"(positive: {counts[1]}, negative: {counts[0]})")
    if groups is not None:
        if len(groups) != len(y):
            raise ValueError(f"{len(groups)} groups for {len(y)} judged items")
        if (splits := _grouped_folds(y, groups, folds, seed, both_in_test)) is not None:
            return len(splits), splits, True
    # stratified: every test fold holds both labels, so its AUC is defined
    splitter = StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed)
    return folds, list(splitter.split(np.zeros(len(y)), y)), False


def compare(labels: Sequence[int], fit_predict_new: FitPredict, predict_current: Predict, *, seed: int = 0,
            tolerance: float = TOLERANCE, groups: Sequence | None = None) -> Comparison:
    """``groups``: each item's site, for folds by site (see above)."""
    y = np.asarray(labels, dtype=int)
    folds, splits, grouped = _folds(y, seed, groups)
    new, current = [], []
    for train, test in splits:
        new.append(float(f1_score(y[test], np.asarray(fit_predict_new(train, test)), zero_division=0)))
        current.append(float(f1_score(y[test], np.asarray(predict_current(test)), zero_division=0)))
    new_mean, current_mean = float(np.mean(new)), float(np.mean(current))
    return Comparison(folds, new, current, new_mean, current_mean, tolerance,
                      promote=new_mean >= current_mean - tolerance, grouped=grouped)


def compare_scores(labels: Sequence[int], fit_score_new: FitScore, score_current: Score, *, threshold: float,
                   seed: int = 0, tolerance: float = TOLERANCE, groups: Sequence | None = None) -> ScoreComparison:
    """Per fold: ROC AUC of the scores and F1 of "score ≥ threshold"; promote when neither mean is worse
    (``groups``: each item's site, as in ``compare``)."""
    y = np.asarray(labels, dtype=int)
    folds, splits, grouped = _folds(y, seed, groups, both_in_test=True)
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
                           grouped, threshold=threshold, new_auc=aucs["new"], current_auc=aucs["current"],
                           new_auc_mean=auc["new"], current_auc_mean=auc["current"])
