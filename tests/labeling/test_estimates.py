"""Wilson intervals, the stratified estimate and the error breakdown on hand-computed cases."""
import math

import pytest

from labeling.estimates import (Z95, Stratum, error_breakdown, proportion, proportions, stratified_estimate,
                                wilson_bounds, wilson_interval)


def test_wilson_matches_newcombes_worked_example():
    # Newcombe (1998), Stat Med 17:857, Table I: 81/263 → score interval 0.2553 to 0.3662.
    low, high = wilson_interval(81, 263)
    assert low == pytest.approx(0.2553, abs=1e-4)
    assert high == pytest.approx(0.3662, abs=1e-4)


def test_wilson_at_half():
    # 5/10, z² = 3.8415: centre = (0.5 + 0.19207)/1.38415 = 0.5,
    # half = 1.96/1.38415 · √(0.025 + 3.8415/400) = 1.41599 · 0.18601 = 0.26339
    low, high = wilson_interval(5, 10)
    assert (low, high) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))


def test_wilson_at_the_edges_is_not_empty():
    # 0/10: upper = z²/(n + z²) = 3.8415/13.8415 = 0.2775; 10/10 mirrors it.
    assert wilson_interval(0, 10) == (0.0, pytest.approx(0.2775, abs=1e-4))
    low, high = wilson_interval(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == pytest.approx(1.0)


def test_wilson_of_nothing_is_none_and_bad_counts_are_refused():
    assert wilson_interval(0, 0) is None
    assert proportion(0, 0).p is None
    with pytest.raises(ValueError, match="3 successes of 2"):
        wilson_interval(3, 2)


def test_proportions_per_key():
    result = proportions({"hreflang": (9, 10), "deep": (0, 0)})
    assert result["hreflang"].p == 0.9 and result["hreflang"].low < 0.9 < result["hreflang"].high
    assert result["deep"].p is None


def test_stratified_estimate_on_a_hand_computed_case():
    # A: N 1000, n 100, 90 correct; B: N 3000, n 100, 60 correct. W = 0.25, 0.75.
    # p̂ = 0.25·0.9 + 0.75·0.6 = 0.675
    # Var = 0.0625·0.9·0.1/100·(1 − 0.1) + 0.5625·0.6·0.4/100·(1 − 1/30)
    #     = 0.000050625 + 0.001305 = 0.001355625;  SE = 0.0368188
    # n_data = 0.675·0.325 / 0.001355625 = 161.8257; n_alloc = 1 / (0.0625·0.9/100 + 0.5625·(29/30)/100)
    #        = 1 / 0.006 = 166.67; n* = 161.8257
    # Wilson at n*: z²/n* = 0.0237380, centre (0.675 + 0.0118690) / 1.0237380 = 0.670942,
    # half 1.959964/1.023738 · √(0.00135563 + 0.0000366716) = 0.071437 → 0.5995 … 0.7424
    result = stratified_estimate([Stratum("A", 1000, 100, 90), Stratum("B", 3000, 100, 60)])
    assert result.p == pytest.approx(0.675)
    assert result.standard_error == pytest.approx(math.sqrt(0.001355625))
    assert result.effective_n == pytest.approx(161.8257, abs=1e-4)
    assert result.low == pytest.approx(0.5995, abs=1e-4)
    assert result.high == pytest.approx(0.7424, abs=1e-4)
    assert (result.population, result.judged, result.coverage, result.missing) == (4000, 200, 1.0, ())


def test_all_correct_over_40_items_is_not_a_zero_width_interval():
    # The report's "1.000 (95 % interval 1.000–1.000)": p̂ = 1 and Var = 0, so p̂ ± z·SE had no width.
    # n* = n_alloc = 1 / ((1 − 40/1000)/40) = 41.667; Wilson at p = 1: low = n*/(n* + z²) = 0.9156.
    result = stratified_estimate([Stratum("kept", 1000, 40, 40)])
    assert result.p == 1.0 and result.standard_error == 0.0
    assert result.effective_n == pytest.approx(41.6667, abs=1e-4)
    assert result.low == pytest.approx(41.6667 / (41.6667 + Z95 ** 2), abs=1e-6) == pytest.approx(0.9156, abs=1e-4)
    assert result.high == 1.0


def test_none_correct_is_mirrored():
    result = stratified_estimate([Stratum("kept", 1000, 40, 0)])
    assert result.low == 0.0 and result.high == pytest.approx(Z95 ** 2 / (41.6667 + Z95 ** 2), abs=1e-6)


def test_strata_each_all_right_or_all_wrong_still_have_an_interval():
    # p̂ = 0.5 but every p_h is 0 or 1, so Var = 0: n* falls back on the allocation's effective size,
    # 1 / (0.25·0.99/10 + 0.25·0.99/10) = 20.202 (N = 1000 each, n = 10 each).
    result = stratified_estimate([Stratum("a", 1000, 10, 10), Stratum("b", 1000, 10, 0)])
    assert result.p == pytest.approx(0.5) and result.standard_error == 0.0
    assert result.effective_n == pytest.approx(1 / (2 * 0.25 * 0.99 / 10))
    assert (result.low, result.high) == tuple(pytest.approx(x) for x in wilson_bounds(0.5, result.effective_n))
    assert result.high - result.low > 0.3


def test_a_small_stratum_cannot_narrow_the_interval_beyond_what_the_allocation_allows():
    # W 0.99 all right (n 40), W 0.01 half right (n 2): the answers alone say n_data = 398
    # (p̂(1 − p̂) = 0.004975, Var = 1.25e-5); the allocation says 40.7. n* is the smaller.
    result = stratified_estimate([Stratum("big", 99_000, 40, 40), Stratum("small", 1_000, 2, 1)])
    assert result.effective_n == pytest.approx(1 / (0.99 ** 2 * (1 - 40 / 99_000) / 40 + 0.01 ** 2 * (1 - 2 / 1000) / 2))
    assert result.effective_n < 41 and result.low < 0.92


def test_wilson_bounds_take_an_effective_size_and_refuse_none():
    assert wilson_bounds(0.5, 10) == pytest.approx(wilson_interval(5, 10))
    assert wilson_bounds(0.3, math.inf) == (0.3, 0.3)
    with pytest.raises(ValueError, match="bad sample size 0"):
        wilson_bounds(0.5, 0)


def test_a_fully_judged_stratum_has_no_sampling_error():
    # n_h = N_h: the finite population correction (1 − n/N) is 0.
    # A census is exact: its interval has no width, and n* is infinite.
    result = stratified_estimate([Stratum("all", 20, 20, 15)])
    assert result.p == 0.75 and result.standard_error == 0.0 and result.low == result.high == 0.75
    assert result.effective_n == math.inf


def test_unjudged_strata_are_reported_missing_and_left_out():
    # B has nothing judged: the estimate covers A only (1000 of 4000).
    result = stratified_estimate([Stratum("A", 1000, 100, 90), Stratum("B", 3000, 0, 0)])
    assert result.p == pytest.approx(0.9)
    assert result.coverage == pytest.approx(0.25)
    assert result.missing == ("B",)


def test_stratified_estimate_of_nothing():
    assert stratified_estimate([]).p is None
    assert stratified_estimate([Stratum("A", 10, 0, 0)]).p is None


def test_stratified_estimate_refuses_more_judged_than_population():
    with pytest.raises(ValueError, match="exceed its population"):
        stratified_estimate([Stratum("A", 5, 6, 1)])


def test_error_breakdown_counts_per_method_and_overall():
    categories = ["language_id", "invalid_url", "same_language", "extraction", "false_bilingual"]
    judged = [
        ("hreflang", "correct", ""), ("hreflang", "correct", ""), ("hreflang", "wrong", "language_id"),
        ("local", "correct", ""), ("local", "wrong", "language_id"), ("local", "wrong", "extraction"),
        ("local", "partial", ""), ("local", "wrong", ""),
    ]
    rows = error_breakdown(judged, categories)
    assert [r.group for r in rows] == ["hreflang", "local", "all"]
    hreflang, local, overall = rows
    assert (hreflang.judged, hreflang.correct, hreflang.wrong) == (3, 2, 1)
    assert hreflang.precision.p == pytest.approx(2 / 3)
    assert (local.judged, local.correct, local.partial, local.wrong) == (5, 1, 1, 4)
    assert local.categories == {"language_id": 1, "extraction": 1, "partial": 1, "": 1}
    # Table 4 shape: a category's share of the wrong pairs. Overall: 2 of 5 are language errors.
    assert overall.share("language_id") == pytest.approx(0.4)
    assert sum(overall.categories.values()) == overall.wrong == 5


def test_error_breakdown_refuses_unknown_values():
    with pytest.raises(ValueError, match="unknown error category 'typo'"):
        error_breakdown([("m", "wrong", "typo")], ["language_id"])
    with pytest.raises(ValueError, match="unknown outcome"):
        error_breakdown([("m", "maybe", "")], ["language_id"])


def test_error_breakdown_of_nothing_has_an_empty_total():
    (total,) = error_breakdown([], ["language_id"])
    assert total.judged == 0 and total.precision.p is None and total.share("language_id") is None
