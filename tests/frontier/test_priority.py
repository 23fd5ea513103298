"""Combining layer placements into one fetch priority (higher = fetched earlier)."""
import pytest

from frontier.layers.base import ConfigError, Placement
from frontier.priority import PriorityConfig, combine_priority


def place(module, layer, rank=None, key="t", rule="rule"):
    return Placement(key, module, f"{module}.L0{layer}", layer, rule, {}, rank)


# What frontier.placement.frontier_settings fills in for M01 on the sr-en pair (LanguageModule.default_rule_points).
SR_EN_NEEDLES = {"M01": {"needle_sr": 1.0, "needle_en": 1.0}}


def default_config():
    return PriorityConfig.from_dict({}).with_default_rule_points(SR_EN_NEEDLES)


def test_by_default_both_languages_of_the_pair_are_worth_the_same():
    config = default_config()
    serbian = combine_priority({"M01": place("M01", 1, rule="needle_sr"), "M03": place("M03", 2)}, config)
    english = combine_priority({"M01": place("M01", 2, rule="needle_en"), "M03": place("M03", 2)}, config)
    assert serbian == english == 3 * (2 + 1) + 1 * 1
    estimated_sr = combine_priority({"M01": place("M01", 1, rule="estimate_sr")}, config)
    estimated_en = combine_priority({"M01": place("M01", 2, rule="estimate_en")}, config)
    assert estimated_sr == estimated_en == 3 * 2


def test_by_default_a_needle_outranks_an_estimate_and_language_outranks_structure():
    config = default_config()

    def value(m01_layer, m01_rule, m03_layer, rank=None):
        return combine_priority({"M01": place("M01", m01_layer, rule=m01_rule),
                                 "M03": place("M03", m03_layer, rank=rank)}, config)

    # M01 first: a needle of the pair, then an estimate, then Reserve, whatever M03 says.
    assert value(2, "needle_en", 3, rank=-50) > value(1, "estimate_sr", 1, rank=50)
    assert value(1, "estimate_sr", 3, rank=-50) > value(3, "needle_de", 1, rank=50)
    assert value(3, "needle_de", 1) == value(3, "unassigned", 1) == 2  # no points for another language's needle
    # Equal M01: M03's layer decides, then (equal layers) its rank.
    assert value(1, "needle_sr", 1, rank=-50) > value(1, "needle_sr", 2, rank=50) > value(1, "needle_sr", 3, rank=50)
    assert value(1, "needle_sr", 1, rank=5) > value(1, "needle_sr", 1, rank=1)
    assert value(1, "needle_sr", 1, rank=5) - value(1, "needle_sr", 1, rank=1) < 0.001


def test_rule_points_are_the_modules_defaults_unless_the_crawl_sets_them():
    assert PriorityConfig.from_dict({}).rule_points is None  # filled in by the lead, from the modules
    own = PriorityConfig.from_dict({"rule_points": {"M01": {"estimate_en": 0.5}}})
    own = own.with_default_rule_points(SR_EN_NEEDLES)
    assert own.rule_points == {"M01": {"estimate_en": 0.5}}
    assert combine_priority({"M01": place("M01", 2, rule="estimate_en")}, own) == 3 * (2 + 0.5)
    assert combine_priority({"M01": place("M01", 2, rule="needle_en")}, own) == 3 * 2


def test_a_sum_of_layer_points_with_rank_only_breaking_ties():
    # The same points for every module (2, 1, 0), weights 1: the plain weighted sum.
    config = PriorityConfig.from_dict({"module_weights": {"M01": 1, "M03": 1},
                                       "layer_points": {"primary": 2, "secondary": 1, "reserve": 0}})
    assert config.module_layer_points == {}  # layer_points given: they hold for every module
    primary_reserve = combine_priority({"M01": place("M01", 1), "M03": place("M03", 3, rank=9.0)}, config)
    both_secondary = combine_priority({"M01": place("M01", 2), "M03": place("M03", 2, rank=1.0)}, config)
    both_secondary_low = combine_priority({"M01": place("M01", 2), "M03": place("M03", 2, rank=0.5)}, config)
    both_primary = combine_priority({"M01": place("M01", 1), "M03": place("M03", 1, rank=-50.0)}, config)
    assert 2.0 < primary_reserve < 2.001 and 2.0 < both_secondary < 2.001
    assert primary_reserve > both_secondary > both_secondary_low  # equal sums: M03 rank decides
    assert both_primary > primary_reserve  # a better layer always beats a better rank
    assert combine_priority({"M01": place("M01", 3)}, config) == 0.0  # no M03 rank: no tie-breaker


def test_module_weights_scale_layer_points():
    config = PriorityConfig.from_dict({"module_weights": {"M01": 3, "M03": 1}, "tie_break_module": None,
                                       "module_layer_points": {}})
    assert combine_priority({"M01": place("M01", 2), "M03": place("M03", 1)}, config) == 3 * 1 + 1 * 2
    assert combine_priority({"M01": place("M01", 1), "M03": place("M03", 3)}, config) == 3 * 2


def test_module_layer_points_override_the_layer_points_of_one_module():
    config = PriorityConfig.from_dict({"module_weights": {"M01": 1, "M03": 1}, "tie_break_module": None,
                                       "module_layer_points": {"M03": {"primary": 5, "secondary": 5, "reserve": 1}}})
    assert combine_priority({"M01": place("M01", 2), "M03": place("M03", 2)}, config) == 1 + 5
    assert combine_priority({"M01": place("M01", 1), "M03": place("M03", 3)}, config) == 2 + 1


def test_custom_layer_points_and_unweighted_modules_use_the_default_weight():
    config = PriorityConfig.from_dict({
        "layer_points": {"primary": 10, "secondary": 4, "reserve": 1}, "module_weights": {"M01": 1},
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
    ({"module_layer_points": {"M01": {"primary": 1, "secondary": 2, "reserve": 0}}}, "module_layer_points.M01"),
    ({"module_layer_points": [1]}, "module_layer_points"),
    ({"rule_points": {"M01": {"needle_sr": -1}}}, "rule_points.M01.needle_sr"),
    ({"rule_points": {"M01": 1}}, "rule_points.M01"),
    ({"rule_points": {"M01": {"needle_sr": 0.0001}}}, "tie_break_epsilon"),
])
def test_bad_priority_configuration_names_the_key(bad, named):
    with pytest.raises(ConfigError, match=named.replace(".", r"\.")):
        PriorityConfig.from_dict(bad)


def test_a_placement_filed_under_the_wrong_module_is_rejected():
    with pytest.raises(ValueError, match="filed under"):
        combine_priority({"M03": place("M01", 1)}, PriorityConfig())
