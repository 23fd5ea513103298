"""The promotion rule (mean F1 over folds, not worse) and the detector threshold from judged sites."""
import numpy as np
import pytest

from training.learn.comparison import compare, compare_scores
from training.learn.threshold import choose_threshold


def test_a_better_model_is_promoted_and_a_worse_one_is_not():
    y = np.array([0, 1] * 10)
    perfect = lambda train, test: y[test]  # noqa: E731
    always_yes = lambda test: np.ones(len(test), dtype=int)  # noqa: E731
    better = compare(y, perfect, always_yes, seed=1)
    assert better.promote and better.new_mean == 1.0 and better.current_mean == pytest.approx(2 / 3)
    assert better.folds == 5 and len(better.new_f1) == 5
    worse = compare(y, lambda train, test: np.ones(len(test), dtype=int), lambda test: y[test], seed=1)
    assert not worse.promote and worse.new_mean < worse.current_mean


def test_an_equal_model_is_promoted_since_it_is_not_worse():
    y = np.array([0, 1] * 6)
    same = compare(y, lambda train, test: y[test], lambda test: y[test])
    assert same.promote and same.new_mean == same.current_mean == 1.0


def test_too_few_judged_items_of_a_label_cannot_be_compared():
    with pytest.raises(ValueError, match="at least 2 judged items of each label"):
        compare([1, 1, 1, 0], lambda a, b: b, lambda b: b)


def test_a_scoring_model_must_rank_and_decide_at_the_threshold_no_worse():
    y = np.array([0, 0, 0, 1] * 10)
    shy = np.where(y == 1, 0.7, 0.1)  # ranks perfectly, but no link reaches the detector's 0.8: F1 0
    bold = np.where(y == 1, 0.9, 0.1)
    bold[[0, 4]] = 0.95  # every positive above 0.8, and two negatives above them: F1 > 0, AUC < 1
    f1_only_better = compare_scores(y, lambda train, test: bold[test], lambda test: shy[test], threshold=0.8, seed=1)
    assert f1_only_better.new_mean > f1_only_better.current_mean == 0.0
    assert f1_only_better.new_auc_mean < f1_only_better.current_auc_mean == 1.0
    assert not f1_only_better.promote  # F1 at the threshold alone would have promoted it
    ranks_and_decides = np.where(y == 1, 0.9, 0.1)
    better = compare_scores(y, lambda train, test: ranks_and_decides[test], lambda test: shy[test], threshold=0.8)
    assert better.promote and better.new_mean == 1.0 and better.new_auc_mean == better.current_auc_mean == 1.0
    assert not compare_scores(y, lambda train, test: shy[test], lambda test: ranks_and_decides[test],
                              threshold=0.8).promote  # same ranking, worse at the threshold


def test_the_threshold_maximizes_f1_on_judged_sites():
    scores = [0.95, 0.9, 0.85, 0.7, 0.65, 0.6, 0.3, 0.2, 0.1, 0.05] * 3
    labels = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0] * 3
    choice = choose_threshold(scores, labels, default=0.8)
    assert not choice.default_kept and choice.threshold == 0.65 and choice.f1 == 1.0


def test_the_default_threshold_stays_below_the_floor_of_examples():
    choice = choose_threshold([0.9, 0.1, 0.6], [1, 0, 1], default=0.8, min_sites=20)
    assert choice.default_kept and choice.threshold == 0.8 and "need 20" in choice.reason
