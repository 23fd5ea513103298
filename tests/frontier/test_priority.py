"""Combining layer placements into one fetch priority (higher = fetched earlier)."""
import pytest

from frontier.layers.base import ConfigError, Placement
from frontier.priority import PriorityConfig, combine_priority


def place(module, layer, rank=None, key="t"):
    return Placement(key, module, f"{module}.L0{layer}", layer, "rule", {}, rank)


def test_default_is_the_sum_of_layer_points_with_rank_only_breaking_ties():
    config = PriorityConfig.from_dict({})
    primary_reserve = combine_priority({"M01": place("M01", 1), "M03": place("M03", 3, rank=9.0)}, config)
    both_secondary = combine_priority({"M01": place("M01", 2), "M03": place("M03", 2, rank=1.0)}, config)
    both_secondary_low = combine_priority({"M01": place("M01", 2), "M03": place("M03", 2, rank=0.5)}, config)
    both_primary = combine_priority({"M01": place("M01", 1), "M03": place("M03", 1, rank=-50.0)}, config)
    assert 2.0 < primary_reserve < 2.001 and 2.0 < both_secondary < 2.001
    assert primary_reserve > both_secondary > both_secondary_low  # equal sums: M03 rank decides
    assert both_primary > primary_reserve  # a better layer always beats a better rank
    assert combine_priority({"M01": place("M01", 3)}, config) == 0.0  # no M03 rank: no tie-breaker


def test_module_weights_scale_layer_points():
    config = PriorityConfig.from_dict({"module_weights": {"M01": 3, "M03": 1}, "tie_break_module": None})
    assert combine_priority({"M01": place("M01", 2), "M03": place("M03", 1)}, config) == 3 * 1 + 1 * 2
    assert combine_priority({"M01": place("M01", 1), "M03": place("M03", 3)}, config) == 3 * 2


def test_custom_layer_points_and_unweighted_modules_use_the_default_weight():
    config = PriorityConfig.from_dict({
        "layer_points": {"primary": 10, "secondary": 4, "reserve": 1},
        "default_module_weight": 0.5, "tie_break_module": "M05",
    })
    value = combine_priority({"M01": place("M01", 2), "M05": place("M05", 3, rank=0.0)}, config)
    assert value == pytest.approx(4 * 1.0 + 1 * 0.5 + 0.001 * 0.5)


@pytest.mark.parametrize("bad,named", [
    ({"weights": {}}, "'weights'"),
    ({"module_weights": {"M01": -1}}, "module_weights.M01"),
    ({"module_weights": {"M01": "high"}}, "module_weights.M01"),
    ({"module_weights": [1, 2]}, "module_weights"),
    ({"layer_points": {"primary": 2, "secondary": 1}}, "layer_points.reserve"),
    ({"layer_points": {"primary": 2, "secondary": 1, "reserve": 0, "top": 5}}, "layer_points.top"),
    ({"layer_points": {"primary": 0, "secondary": 1, "reserve": 2}}, "layer_points"),
    ({"tie_break_epsilon": 0}, "tie_break_epsilon"),
    ({"tie_break_epsilon": 1.0}, "tie_break_epsilon"),
    ({"tie_break_module": 3}, "tie_break_module"),
    ({"default_module_weight": float("nan")}, "default_module_weight"),
])
def test_bad_priority_configuration_names_the_key(bad, named):
    with pytest.raises(ConfigError, match=named.replace(".", r"\.")):
        PriorityConfig.from_dict(bad)


def test_a_placement_filed_under_the_wrong_module_is_rejected():
    with pytest.raises(ValueError, match="filed under"):
        combine_priority({"M03": place("M01", 1)}, PriorityConfig())
