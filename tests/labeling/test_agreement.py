"""Cohen's and Fleiss' kappa on tables worked out by hand (database-free)."""
import pytest

from labeling.agreement import cohen_kappa, fleiss_by_rater_count, fleiss_kappa, pairwise_cohen, pooled_kappa


def test_cohen_matches_the_textbook_two_by_two_table():
    # Cohen's kappa article (Wikipedia), 50 grant proposals read by A and B:
    #             B yes  B no
    #   A yes      20     5     A says yes 25/50 = 0.5
    #   A no       10    15     B says yes 30/50 = 0.6
    # p_o = (20 + 15) / 50 = 0.70
    # p_e = 0.5·0.6 + 0.5·0.4 = 0.30 + 0.20 = 0.50
    # κ = (0.70 − 0.50) / (1 − 0.50) = 0.40
    pairs = [("y", "y")] * 20 + [("y", "n")] * 5 + [("n", "y")] * 10 + [("n", "n")] * 15
    result = cohen_kappa(pairs)
    assert result.observed == pytest.approx(0.70)
    assert result.expected == pytest.approx(0.50)
    assert result.kappa == pytest.approx(0.40)
    assert result.items == 50


def test_cohen_with_three_categories_and_a_category_one_rater_never_used():
    # 10 items, A: yes×5 no×3 partial×2, B: yes×6 no×4 (B never says partial).
    #   agreements: yes/yes 5, no/no 3; disagreements: partial→yes 1, partial→no 1
    # p_o = 8/10 = 0.8
    # p_e = (5/10)(6/10) + (3/10)(4/10) + (2/10)(0/10) = 0.30 + 0.12 + 0 = 0.42
    # κ = (0.8 − 0.42) / 0.58 = 0.38 / 0.58 = 0.655172…
    pairs = [("yes", "yes")] * 5 + [("no", "no")] * 3 + [("partial", "yes"), ("partial", "no")]
    result = cohen_kappa(pairs)
    assert result.expected == pytest.approx(0.42)
    assert result.kappa == pytest.approx(0.38 / 0.58)


def test_perfect_agreement_over_two_categories_is_one():
    result = cohen_kappa([("y", "y")] * 3 + [("n", "n")] * 2)
    assert result.kappa == pytest.approx(1.0)
    assert result.observed == 1.0


def test_all_agree_on_one_category_leaves_kappa_undefined_not_one():
    # p_o = 1 and p_e = 1·1 = 1: κ = 0/0.
    result = cohen_kappa([("y", "y")] * 4)
    assert result.kappa is None
    assert result.observed == 1.0 and result.expected == 1.0


def test_no_common_items_gives_no_figure():
    result = cohen_kappa([])
    assert (result.kappa, result.observed, result.expected, result.items) == (None, None, None, 0)


def test_systematic_disagreement_gives_negative_kappa():
    # A always yes/no where B says the opposite, half and half:
    # p_o = 0, p_e = 0.5·0.5 + 0.5·0.5 = 0.5, κ = −0.5/0.5 = −1.
    result = cohen_kappa([("y", "n"), ("n", "y")] * 3)
    assert result.kappa == pytest.approx(-1.0)


def test_pairwise_cohen_uses_only_items_both_raters_judged():
    ratings = {
        1: {"ana": "y", "bo": "y", "cy": "n"},
        2: {"ana": "n", "bo": "n"},
        3: {"ana": "y", "bo": "n"},
        4: {"bo": "y", "cy": "y"},
    }
    per_pair = pairwise_cohen(ratings)
    assert set(per_pair) == {("ana", "bo"), ("ana", "cy"), ("bo", "cy")}
    # ana–bo on items 1, 2, 3: (y,y) (n,n) (y,n): p_o = 2/3;
    # ana yes 2/3, bo yes 1/3: p_e = (2/3)(1/3) + (1/3)(2/3) = 4/9; κ = (2/3 − 4/9)/(5/9) = 2/5
    assert per_pair[("ana", "bo")].items == 3
    assert per_pair[("ana", "bo")].kappa == pytest.approx(0.4)
    assert per_pair[("ana", "cy")].items == 1
    assert per_pair[("bo", "cy")].items == 2


def test_pooled_kappa_weights_each_pair_by_its_items():
    # Pair 1: the textbook table (50 items, p_o 0.70, p_e 0.50).
    # Pair 2: 10 items, all agree over two categories 5/5 (p_o 1.0, p_e 0.5).
    # p̄_o = (50·0.70 + 10·1.0)/60 = 45/60 = 0.75; p̄_e = (50·0.5 + 10·0.5)/60 = 0.5
    # κ = (0.75 − 0.5)/0.5 = 0.5
    textbook = [("y", "y")] * 20 + [("y", "n")] * 5 + [("n", "y")] * 10 + [("n", "n")] * 15
    per_pair = {("a", "b"): cohen_kappa(textbook), ("c", "d"): cohen_kappa([("y", "y")] * 5 + [("n", "n")] * 5)}
    pooled = pooled_kappa(per_pair)
    assert pooled.items == 60
    assert pooled.observed == pytest.approx(0.75)
    assert pooled.kappa == pytest.approx(0.5)


def test_pooled_kappa_stays_defined_when_one_pair_saw_one_category():
    per_pair = {("a", "b"): cohen_kappa([("y", "y")] * 4), ("a", "c"): cohen_kappa([("y", "n"), ("n", "n")])}
    # a–b alone has κ = 0/0; pooled with a–c (p_o 0.5, p_e 0.5·0 + 0.5·1 = 0.5):
    # p̄_o = (4·1 + 2·0.5)/6 = 5/6; p̄_e = (4·1 + 2·0.5)/6 = 5/6 → κ = 0/(1/6) = 0, defined
    assert per_pair[("a", "b")].kappa is None
    assert pooled_kappa(per_pair).kappa == pytest.approx(0.0)
    per_pair[("b", "c")] = cohen_kappa([("y", "y"), ("n", "n")])
    # add p_o 1, p_e 0.5 over 2 items: p̄_o = 7/8, p̄_e = (5 + 1)/8 = 3/4; κ = (1/8)/(1/4) = 0.5
    assert pooled_kappa(per_pair).kappa == pytest.approx(0.5)


def test_pooled_kappa_of_nothing():
    assert pooled_kappa({}).kappa is None


FLEISS_1971_TABLE = [  # Fleiss' kappa article (Wikipedia): 10 subjects, 14 raters, 5 categories
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
]


def test_fleiss_matches_the_textbook_example():
    # Column totals 20, 28, 39, 21, 32 of 140 ratings: p_j = .143 .200 .279 .150 .229,
    # p_e = Σ p_j² = (400 + 784 + 1521 + 441 + 1024)/19600 = 4170/19600 = 0.212755
    # P_1 = (14² − 14)/(14·13) = 1; P_2 = (4 + 36 + 16 + 4 − 14)/182 = 46/182 = 0.253 …
    # P̄ = 0.378022; κ = (0.378022 − 0.212755)/(1 − 0.212755) = 0.2099
    result = fleiss_kappa([dict(enumerate(row)) for row in FLEISS_1971_TABLE])
    assert result.expected == pytest.approx(4170 / 19600)
    assert result.observed == pytest.approx(0.378022, abs=1e-6)
    assert result.kappa == pytest.approx(0.2099, abs=1e-4)
    assert (result.items, result.raters_per_item) == (10, 14)


def test_fleiss_with_two_raters_and_all_agreeing_on_two_categories_is_one():
    result = fleiss_kappa([{"y": 3}, {"n": 3}, {"y": 3}])
    # P_i = 1 each; p_y = 6/9, p_n = 3/9, p_e = 5/9: κ = (1 − 5/9)/(4/9) = 1
    assert result.kappa == pytest.approx(1.0)


def test_fleiss_on_one_category_is_undefined():
    assert fleiss_kappa([{"y": 3}, {"y": 3}]).kappa is None


def test_fleiss_refuses_items_with_different_rater_counts():
    with pytest.raises(ValueError, match="same number of raters"):
        fleiss_kappa([{"y": 3}, {"y": 2, "n": 2}])


def test_fleiss_by_rater_count_groups_items_and_ignores_pairs():
    ratings = {
        1: {"a": "y", "b": "y", "c": "y"},
        2: {"a": "y", "b": "n", "c": "n"},
        3: {"a": "y", "b": "y", "c": "n", "d": "n"},
        4: {"a": "y", "b": "y"},  # only two raters: Cohen's, not Fleiss'
    }
    groups = fleiss_by_rater_count(ratings)
    assert [(g.raters_per_item, g.items) for g in groups] == [(4, 1), (3, 2)]
    # m = 3 group: P_1 = (9 − 3)/6 = 1, P_2 = (1 + 4 − 3)/6 = 1/3, P̄ = 2/3;
    # p_y = 4/6, p_n = 2/6, p_e = 16/36 + 4/36 = 5/9; κ = (2/3 − 5/9)/(4/9) = 1/4
    assert groups[1].kappa == pytest.approx(0.25)


def test_fleiss_of_nothing():
    assert fleiss_by_rater_count({1: {"a": "y", "b": "n"}}) == []
    assert fleiss_kappa([]).kappa is None
