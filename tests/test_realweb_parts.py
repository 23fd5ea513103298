"""bench/realweb.py's figures by part (bench/support/realweb_parts.py) on a tiny made-up truth: each part is
scored on its own sites, pairs and pages, and the RESULT line gives dev-test's unprefixed, dev-train's as train_."""
from __future__ import annotations

import json

import pytest

from bench.support.realweb_parts import by_part, part_figures, result_line, site_parts
from bench.support.realweb_truth import load_truth

A, B, C, N = "http://a.gh.test", "http://b.gh.test", "http://c.gh.test", "http://n.gh.test"


def site(host, bilingual, pairs, labels, languages, status=None):
    """A truth.json site as scripts/build_realweb.py writes it."""
    base = f"http://{host}"
    status = status or {}
    return {"host": host, "kind": "real", "bilingual_sr_en": bilingual, "languages": languages,
            "parallel_pairs": [[base + a, base + b] for a, b in pairs],
            "parallel_pairs_translated": [[base + a, base + b] for a, b in pairs if a not in status],
            "pair_status": {f"{base}{a} {base}{b}": status.get(a, "translated") for a, b in pairs},
            "page_languages": {base + path: label for path, label in labels.items()}}


@pytest.fixture
def truth(tmp_path):
    sites = [
        # dev-test: a.gh.test (two translated pairs), n.gh.test (a Croatian negative)
        site("a.gh.test", True, [("/", "/en/"), ("/o-nama.html", "/en/about.html")],
             {"/": "sr-Latn", "/en/": "en", "/o-nama.html": "sr-Latn", "/en/about.html": "en"}, ["en", "sr-Latn"]),
        site("n.gh.test", False, [], {"/": "hr", "/en/": "en"}, ["en", "hr"]),
        # dev-train: b.gh.test (one translated pair, one boilerplate), c.gh.test (one translated pair)
        site("b.gh.test", True, [("/sr.html", "/en.html"), ("/kontakt.html", "/contact.html")],
             {"/sr.html": "sr-Cyrl", "/en.html": "en", "/kontakt.html": "sr-Cyrl", "/contact.html": "en"},
             ["en", "sr-Cyrl"], status={"/kontakt.html": "boilerplate"}),
        site("c.gh.test", True, [("/index-sr.html", "/index.html")],
             {"/index-sr.html": "sr-Latn", "/index.html": "en"}, ["en", "sr-Latn"]),
    ]
    (tmp_path / "truth.json").write_text(json.dumps({"sites": sites}))
    split = {"seed": 31, "train_share": 0.6, "sites": {
        "a.gh.test": {"part": "dev-test", "stratum": "sr-en"}, "n.gh.test": {"part": "dev-test", "stratum": "hr"},
        "b.gh.test": {"part": "dev-train", "stratum": "sr-en"}}}   # c.gh.test: not recorded yet
    (tmp_path / "split.json").write_text(json.dumps(split))
    return load_truth(tmp_path), tmp_path / "split.json"


def test_recorded_hosts_keep_their_part_and_a_new_one_gets_the_rules(truth):
    loaded, split = truth
    parts = site_parts(loaded.content_sites, split)
    assert parts["a.gh.test"] == "dev-test" and parts["n.gh.test"] == "dev-test" and parts["b.gh.test"] == "dev-train"
    # sr–en has one site in each part: by the rule (60 % train, a tie to dev-train) the third goes to dev-train
    assert parts["c.gh.test"] == "dev-train"


def test_each_part_is_scored_on_its_own_sites_pairs_and_pages(truth):
    loaded, split = truth
    halves = by_part(loaded.content_sites, site_parts(loaded.content_sites, split))
    assert sorted(s.host for s in halves["dev-test"]) == ["a.gh.test", "n.gh.test"]
    # The crawl: a, b and n called bilingual (n wrongly), c missed.
    verdicts = {"a.gh.test": True, "b.gh.test": True, "n.gh.test": True, "c.gh.test": False}
    kept = {frozenset((A + "/", A + "/en")),                       # a: one of its two translated pairs
            frozenset((B + "/sr.html", B + "/en.html")),           # b: its translated pair
            frozenset((B + "/kontakt.html", B + "/contact.html")),  # b: its boilerplate pair (listed: right)
            frozenset((C + "/index-sr.html", C + "/en.html"))}     # wrong (and on another site's page)
    predicted = {A + "/": "sr-Latn", A + "/en": "en", A + "/o-nama.html": "hr", A + "/en/about.html": "en",
                 N + "/": "sr-Latn", N + "/en": "en",
                 B + "/sr.html": "sr-Cyrl", B + "/en.html": "en", B + "/kontakt.html": "sr-Cyrl",
                 B + "/contact.html": "en", C + "/index-sr.html": "sr-Latn", C + "/": "en"}
    test = part_figures(halves["dev-test"], verdicts, kept, predicted)
    train = part_figures(halves["dev-train"], verdicts, kept, predicted)
    assert (test.site_p, test.site_r) == (0.5, 1.0)
    assert (train.site_p, train.site_r) == (1.0, 0.5)
    assert (test.pair_p, test.pair_r, test.kept_pairs, test.translated_pairs) == (1.0, 0.5, 1, 2)
    assert (train.pair_p, train.pair_r, train.kept_pairs) == (pytest.approx(2 / 3), 0.5, 3)
    assert test.lid_acc == pytest.approx(4 / 6, abs=1e-4) and test.lid_sr_vs_hbs == pytest.approx(1 / 3, abs=1e-4)
    assert train.lid_acc == 1.0 and train.pages == 6

    line = result_line(test, train, sites_per_100=12.5, budget=500)
    assert line.startswith("RESULT site_p=0.5000 site_r=1.0000 pair_p=1.0000 pair_r=0.5000 lid_acc=0.6667 ")
    values = dict(item.split("=") for item in line.split()[1:])
    assert values["train_site_r"] == "0.5000" and values["train_pair_r"] == "0.5000"
    assert values["train_pair_p"] == "0.6667" and values["train_lid_acc"] == "1.0000"
    assert values["render_ms_per_page"] == "0.0000" and values["budget"] == "500"


def test_a_part_without_a_full_crawl_has_site_figures_only(truth):
    loaded, split = truth
    halves = by_part(loaded.content_sites, site_parts(loaded.content_sites, split))
    figures = part_figures(halves["dev-train"], {"b.gh.test": True}, set(), None)
    assert (figures.site_p, figures.site_r, figures.pair_r, figures.pages) == (1.0, 0.5, 0.0, 0)


def test_a_run_over_one_part_reports_that_parts_keys_only():
    """bench/realweb.py --part dev-train: the tuning loop's RESULT line holds no dev-test figure."""
    from bench.support.realweb_parts import one_part

    line = ("RESULT site_p=1.0000 pair_r=0.8000 train_site_p=0.9000 train_pair_r=0.9500 render_ms_per_page=0.0000 "
            "cobfc_sites_per_100=3.0000 budget=500")
    assert one_part(line, "dev-train") == ("RESULT train_site_p=0.9000 train_pair_r=0.9500 render_ms_per_page=0.0000 "
                                           "cobfc_sites_per_100=3.0000 budget=500")
    assert one_part(line, "dev-test") == ("RESULT site_p=1.0000 pair_r=0.8000 render_ms_per_page=0.0000 "
                                          "cobfc_sites_per_100=3.0000 budget=500")
