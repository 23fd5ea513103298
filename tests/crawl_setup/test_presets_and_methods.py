"""Presets and the method lines of a crawl's configuration: pure, no database."""
from types import SimpleNamespace

from console.crawl_setup.methods import configuration_rows
from console.crawl_setup.presets import BILINGUAL_TOPIC, PRESETS, preset_named
from frontier.topic_filter import TopicDefinition


def crawl(strategy="bfs", config=None, **fields):
    values = {"source_language": "sr", "target_language": "en", "page_budget": 100, "time_limit_seconds": None,
              "parallel_steps": 1, "follow_out_of_site": True, **fields}
    return SimpleNamespace(strategy=strategy, config=config or {}, get_strategy_display=lambda: strategy.upper(),
                           **values)


def test_a_preset_is_found_by_name_or_slug_in_any_case():
    assert preset_named("Barbosa COBFC") is preset_named("barbosa-cobfc") is preset_named(" BARBOSA cobfc ")
    assert preset_named("Combine") is None


def test_every_preset_sets_the_same_method_fields_so_one_replaces_another():
    keys = {frozenset(p.values) for p in PRESETS}
    assert len(keys) == 1
    assert [p.name for p in PRESETS] == ["Barbosa COBFC", "Layered M01+M03", "Combine focused", "Breadth-first"]


def test_the_combine_preset_topic_is_a_valid_topic_definition():
    assert len(TopicDefinition.parse(BILINGUAL_TOPIC).terms) == 9


def test_rows_name_the_method_behind_each_choice():
    rows = {r.key: r for r in configuration_rows(crawl("cobfc", {
        "modules": {"M01": {"pair": "sr-en"}}, "priority": {"module_weights": {"M01": 3}},
        "detector": {"min_likelihood": 0.7}, "host_interval": 2}, time_limit_seconds=60))}
    assert "Barbosa et al. 2011" in rows["strategy"].method and "COBFC" in rows["strategy"].method
    assert rows["modules.M01"].value == "on, weight 3" and "Language module M01" in rows["modules.M01"].method
    assert rows["backlinks"].value == "graph", "OBFC and COBFC default to the crawl's own link graph"
    assert rows["detector"].value == '{"min_likelihood": 0.7}' and "BS Detector" in rows["detector"].method
    assert rows["host_interval"].value == "2 s between requests to a host"
    assert rows["time_limit"].value == "60 s"
    assert "priority" not in rows, "module weights are shown with their modules"


def test_a_focused_crawl_shows_its_topic_and_a_plain_one_no_modules():
    focused = {r.key: r for r in configuration_rows(crawl("focc", {"topic": {"definition": BILINGUAL_TOPIC}}))}
    assert focused["topic"].value == "9 term lines, cut-off 10"
    plain = {r.key: r for r in configuration_rows(crawl())}
    assert plain["modules"].value.startswith("none") and "backlinks" not in plain and "topic" not in plain
