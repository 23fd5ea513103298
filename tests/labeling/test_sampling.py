"""labeling.sampling: pure, no database."""
import math
from collections import Counter

import pytest

from labeling.sampling import Unit, assign, margin_of_error, stratified_sample, strata_margins, uncertainty_sample


def population(sizes: dict[str, int]) -> list[Unit]:
    units, key = [], 0
    for stratum, size in sizes.items():
        for _ in range(size):
            key += 1
            units.append(Unit(key, stratum, probability=(key % 100) / 100))
    return units


def keys(drawn) -> list[int]:
    return [d.unit.key for d in drawn]


def test_same_seed_same_population_gives_the_same_sample_whatever_the_input_order():
    units = population({"local · kept": 500, "hreflang · removed": 300})
    first = stratified_sample(units, 50, seed=42)
    again = stratified_sample(list(reversed(units)), 50, seed=42)
    assert keys(first) == keys(again)
    assert [d.position for d in first] == list(range(100))


def test_another_seed_gives_another_sample():
    units = population({"a": 500})
    assert set(keys(stratified_sample(units, 50, seed=1))) != set(keys(stratified_sample(units, 50, seed=2)))


def test_every_stratum_gets_its_size_capped_at_the_stratum_size():
    drawn = stratified_sample(population({"big": 1000, "small": 7, "mid": 60}), 50, seed=3)
    per_stratum = Counter(d.unit.stratum for d in drawn)
    assert per_stratum == {"big": 50, "small": 7, "mid": 50}
    assert {d.unit.stratum: d.stratum_size for d in drawn} == {"big": 1000, "small": 7, "mid": 60}
    assert len(set(keys(drawn))) == len(drawn)  # without replacement


def test_adding_a_stratum_leaves_the_other_strata_samples_alone():
    base = population({"a": 200})
    grown = base + [Unit(10_000 + i, "b") for i in range(50)]
    a_only = {d.unit.key for d in stratified_sample(base, 20, seed=9)}
    a_in_grown = {d.unit.key for d in stratified_sample(grown, 20, seed=9) if d.unit.stratum == "a"}
    assert a_only == a_in_grown


def test_uniformity_every_unit_is_about_equally_likely():
    units = population({"a": 20})
    counts = Counter(k for seed in range(2000) for k in keys(stratified_sample(units, 5, seed)))
    # each unit is chosen with probability 5/20: 500 of 2000 draws; ±4.5 standard deviations
    assert all(abs(c - 500) < 4.5 * math.sqrt(2000 * .25 * .75) for c in counts.values())
    assert len(counts) == 20


def test_uncertainty_sampling_takes_the_probabilities_nearest_one_half():
    units = [Unit(i, "s", p) for i, p in enumerate([0.01, 0.49, 0.9, 0.55, 0.5, 0.2, None])]
    drawn = uncertainty_sample(units, 3, seed=0)
    assert sorted(keys(drawn)) == [1, 3, 4]


def test_uncertainty_sampling_puts_units_without_probability_last():
    units = [Unit(1, "s", None), Unit(2, "s", 0.99)]
    assert keys(uncertainty_sample(units, 1, seed=0)) == [2]


@pytest.mark.parametrize("n, N, expected", [
    # hand-computed: 1.959964 * sqrt(.25/n) * sqrt((N-n)/(N-1))
    (385, 1_000_000, 0.049934),  # the classic 385 gives ±5 % in a large population
    (100, 1000, 0.093016),  # 0.0979982 * sqrt(900/999) = 0.0979982 * 0.949158
    (50, 50, 0.0),  # the whole population judged
    (1, 2, 0.979982),  # 1.959964 * 0.5 * sqrt(1/1)
])
def test_margin_of_error_with_finite_population_correction(n, N, expected):
    assert margin_of_error(n, N) == pytest.approx(expected, abs=1e-6)


def test_margin_refuses_a_sample_larger_than_its_population():
    with pytest.raises(ValueError, match="cannot come from a population of 10"):
        margin_of_error(11, 10)


def test_strata_margins_cap_the_size():
    assert strata_margins({"a": 10, "b": 1000}, 385)["a"] == (10, 10, 0.0)
    assert strata_margins({"a": 10, "b": 1000}, 385)["b"][:2] == (385, 1000)


def test_bad_sizes_are_named():
    with pytest.raises(ValueError, match="positive whole number"):
        stratified_sample(population({"a": 3}), 0, seed=1)


def test_overlap_share_goes_to_two_evaluators_and_loads_are_even():
    pairs = assign(list(range(100)), [7, 8, 9], overlap=0.2, seed=5)
    per_item = Counter(position for position, _ in pairs)
    assert sum(1 for c in per_item.values() if c == 2) == 20
    assert all(c in (1, 2) for c in per_item.values()) and len(per_item) == 100
    loads = Counter(evaluator for _, evaluator in pairs)
    assert max(loads.values()) - min(loads.values()) <= 1 and sum(loads.values()) == 120
    assert all(len({e for p, e in pairs if p == position}) == per_item[position] for position in per_item)


def test_overlap_is_reproducible_from_the_seed():
    assert assign(range(50), [1, 2], 0.3, seed=4) == assign(range(50), [1, 2], 0.3, seed=4)
    doubled = lambda seed: {p for p, c in Counter(p for p, _ in assign(range(50), [1, 2], 0.3, seed)).items() if c == 2}
    assert doubled(4) != doubled(5)


def test_one_evaluator_gets_everything_once():
    assert assign([0, 1, 2], [1], overlap=0.5, seed=0) == [(0, 1), (1, 1), (2, 1)]


def test_bad_overlap_is_named():
    with pytest.raises(ValueError, match="overlap must be a share between 0 and 1"):
        assign([1], [1, 2], 1.5, seed=0)
