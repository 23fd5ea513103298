"""The "modules" and "priority" keys of a crawl's configuration are validated; errors name the key."""
import pytest
from django.core.exceptions import ValidationError

from crawlweb.services.crawl_config import CrawlConfig
from frontier.placement import frontier_settings


def errors_of(config: dict) -> dict:
    with pytest.raises(ValidationError) as raised:
        CrawlConfig.from_dict(config)
    return {key: " ".join(messages) for key, messages in raised.value.message_dict.items()}


@pytest.mark.parametrize("config, key, words", [
    ({"modules": {"M01": {"restore_diacritics": "yes"}}}, "modules", "M01.restore_diacritics"),
    ({"modules": {"M01": {"pair": "sr-xx"}}}, "modules", "M01.pair"),
    ({"modules": {"M03": {"redistibute": False}}}, "modules", "'redistibute'"),
    ({"modules": {"M99": {}}}, "modules", "modules.M99"),
    ({"modules": ["M01"]}, "modules", "must be a dict"),
    ({"priority": {"layer_points": {"primary": 0, "secondary": 1, "reserve": 0}}}, "priority", "layer_points"),
    ({"priority": {"tie_break_epsilon": 5}}, "priority", "tie_break_epsilon"),
    ({"priority": {"tie_break_epsilon": 0.05}}, "priority", "depth would override layers"),
    ({"priority": {"module_weights": {"M02": 1}}}, "priority", "module_weights.M02"),
    ({"priority": {"tie_break_module": "M09"}}, "priority", "tie_break_module"),
    ({"priority": {"weights": {}}}, "priority", "'weights'"),
    ({"modules": {"M01": {}}, "priority": {"rule_points": {"M01": {"needle_xx": 1}}}}, "priority",
     "rule_points.M01.needle_xx"),
    ({"priority": {"rule_points": {"M07": {"a": 1}}}}, "priority", "rule_points.M07"),
    ({"priority": {"module_layer_points": {"M07": {"primary": 2, "secondary": 1, "reserve": 0}}}}, "priority",
     "module_layer_points.M07"),
    ({"modules": {"M03": {"max_site_targets": 2.5}}}, "modules", "M03.max_site_targets"),
])
def test_a_bad_frontier_config_is_refused_naming_the_key(config, key, words):
    errors = errors_of(config)
    assert set(errors) == {key}
    assert words in errors[key]


def test_both_keys_are_reported_together():
    assert set(errors_of({"modules": {"M99": {}}, "priority": {"weights": {}}})) == {"modules", "priority"}


def test_a_good_config_builds_and_no_modules_means_breadth_first():
    config = {"modules": {"M01": {"restore_diacritics": False}, "M03": {}},
              "priority": {"module_weights": {"M01": 2, "M03": 1}, "tie_break_module": "M03"}}
    CrawlConfig.from_dict(config)
    settings = frontier_settings(config)
    assert set(settings.modules) == {"M01", "M03"} and settings.uses_structure
    assert settings.priority.weight("M01") == 2.0
    assert frontier_settings({}) is None and frontier_settings({"modules": {}}) is None
    assert frontier_settings({"priority": {}}) is None


def test_by_default_m01_needles_of_the_pair_earn_rule_points():
    settings = frontier_settings({"modules": {"M01": {}, "M03": {}}})
    assert settings.priority.rule_points == {"M01": {"needle_sr": 1.0, "needle_en": 1.0}}
    assert settings.priority.points("M01") == {1: 2.0, 2: 2.0, 3: 0.0}
    assert settings.priority.points("M03") == {1: 2.0, 2: 1.0, 3: 0.0}
    assert dict(settings.priority.module_weights) == {"M01": 3.0, "M03": 1.0}
    own = frontier_settings({"modules": {"M01": {}}, "priority": {"rule_points": {}}})
    assert own.priority.rule_points == {}, "a crawl that sets rule_points gets exactly those"
