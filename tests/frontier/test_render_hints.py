"""When the BS Detector renders a candidate page in Chromium (frontier.classifiers.render_hints)."""
from frontier.classifiers.render_hints import render_hints

PAIR = ("sr", "en")
MENU = [("a", False), ("a", False), ("a", False)]


def test_a_page_of_the_pair_with_site_links_and_no_script_of_its_own_is_not_rendered():
    assert render_hints("sr", PAIR, MENU, runs_scripts=True) == []


def test_each_hint_is_named():
    assert render_hints("de", PAIR, MENU) == ["language outside the pair"]
    assert render_hints("sr", PAIR, MENU + [("script-src", False)]) == ["scripts of its own"]
    assert render_hints("en", PAIR, [("a", False), ("a", True)]) == ["few links of its own site"]


def test_a_page_that_runs_no_script_is_never_rendered_whatever_else_hints():
    # a one-page Croatian site with no <script> and no event handler: a browser would show its HTML as is
    assert render_hints("hr", PAIR, [("a", True)], runs_scripts=False) == []
    assert render_hints("hr", PAIR, [("a", True)], runs_scripts=True) == [
        "language outside the pair", "few links of its own site"]


def test_a_page_stored_before_scripts_were_recorded_keeps_its_hints():
    assert render_hints("hr", PAIR, [("a", True)], runs_scripts=None) == [
        "language outside the pair", "few links of its own site"]
