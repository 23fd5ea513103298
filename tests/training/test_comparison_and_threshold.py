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


def test_folds_by_site_keep_each_site_whole():
    y = np.array([1, 1, 0, 0] * 10)
    sites = np.repeat(np.arange(10), 4)  # ten sites, two parallel and two wrong pairs each
    seen = []

    def remembers_the_site(train, test):
        seen.append((set(sites[train]), set(sites[test])))
        return y[test]

    result = compare(y, remembers_the_site, lambda test: y[test], seed=3, groups=sites)
    assert result.grouped and result.folds == 5
    assert all(not (trained & tested) for trained, tested in seen), "no site is on both sides of a fold"
    assert sorted(s for _, tested in seen for s in tested) == list(range(10)), "every site is tested once"


def test_a_model_that_only_remembers_its_sites_loses_to_the_filter_when_folds_keep_sites_whole():
    # each site's pairs share their look: a model that answers "what this site's other judged pairs were"
    # is perfect on folds across sites and knows nothing of a site it has not seen
    rng = np.random.RandomState(0)
    sites = np.repeat(np.arange(12), 6)
    y = np.array([1, 1, 1, 1, 0, 0] * 12)
    filter_kept = np.where(rng.rand(len(y)) < 0.9, y, 1 - y)  # the filter: right nine times in ten

    def remembers(train, test):
        trained_on = set(sites[train])
        return np.array([y[i] if sites[i] in trained_on else 0 for i in test])

    across = compare(y, remembers, lambda test: filter_kept[test], seed=1)
    by_site = compare(y, remembers, lambda test: filter_kept[test], seed=1, groups=sites)
    assert not across.grouped and across.promote and across.new_mean == 1.0
    assert by_site.grouped and not by_site.promote and by_site.new_mean == 0.0


def test_folds_fall_back_to_items_when_sites_would_leave_a_label_unlearnable():
    y = np.array([1] * 20 + [0] * 10)
    one_site = ["a.rs"] * 30
    assert not compare(y, lambda train, test: y[test], lambda test: y[test], groups=one_site).grouped
    negatives_on_one_site = ["a.rs" if label == 0 else f"s{i % 5}.rs" for i, label in enumerate(y)]
    fallback = compare(y, lambda train, test: y[test], lambda test: y[test], groups=negatives_on_one_site)
    assert not fallback.grouped and fallback.folds == 5
    with pytest.raises(ValueError, match="3 groups for 30 judged items"):
        compare(y, lambda train, test: y[test], lambda test: y[test], groups=["a", "b", "c"])


def test_scores_are_compared_by_site_when_every_test_fold_holds_both_answers():
    y = np.array([0, 0, 0, 1] * 10)
    scores = np.where(y == 1, 0.9, 0.1)
    sites = np.repeat(np.arange(10), 4)  # every site has links of both answers
    by_site = compare_scores(y, lambda train, test: scores[test], lambda test: scores[test], threshold=0.8,
                             groups=sites)
    assert by_site.grouped and by_site.promote and by_site.new_auc_mean == 1.0
    translation_links_on_two_sites = np.where(y == 1, np.arange(len(y)) % 2, 2 + np.arange(len(y)) % 8)
    fallback = compare_scores(y, lambda train, test: scores[test], lambda test: scores[test], threshold=0.8,
                              groups=translation_links_on_two_sites)
    assert not fallback.grouped and fallback.folds == 5, "a fold by site would test on no translation link"
