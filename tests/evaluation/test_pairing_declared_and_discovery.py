"""Method "hreflang" (declarations and switchers), site discovery, search-engine interface."""
import pytest

from evaluation.pairing.declared import hreflang_pairs
from evaluation.pairing.switch import SwitchLink, switch_pairs
from evaluation.pairing.discovery import discover_sites, seed_scores
from evaluation.pairing.search import NotConfigured, SearchProvider, build_queries

LANGS = {"http://s.rs/about": "en", "http://s.rs/o-nama": "sr-Latn", "http://s.rs/o-nama-cir": "sr-Cyrl",
         "http://s.rs/uber": "de", "http://s.rs/": "en", "http://s.rs/pocetna": "sr", "http://s.rs/kontakt": "sr"}


def test_hreflang_pairs_need_known_pages_in_the_declared_languages():
    alternates = {
        "http://s.rs/about": {"sr": "http://s.rs/o-nama", "de": "http://s.rs/uber", "en": "http://s.rs/about"},
        "http://s.rs/pocetna": {"en": "http://elsewhere.test/home"},  # template left-over
        "http://s.rs/kontakt": {"en": "http://s.rs/uber"},  # declared en, identified de
    }
    pairs = hreflang_pairs(LANGS, alternates)
    assert [(p.source_url, p.target_url, p.method) for p in pairs] == [
        ("http://s.rs/about", "http://s.rs/o-nama", "hreflang")]


def test_flag_switcher_links_pair_pages_and_home_switchers_do_not():
    links = [
        SwitchLink("http://s.rs/about", "http://s.rs/o-nama", img_src="img/serbia.png", target_language="sr"),
        # every Serbian page's UK flag points to the English home page: not a counterpart ...
        SwitchLink("http://s.rs/o-nama", "http://s.rs/", img_src="flags/united-kingdom.png", target_language="en"),
        SwitchLink("http://s.rs/kontakt", "http://s.rs/", img_src="flags/united-kingdom.png", target_language="en"),
        # ... except for the home page's own counterpart, which links back
        SwitchLink("http://s.rs/pocetna", "http://s.rs/", anchor_text="English", target_language="en"),
        SwitchLink("http://s.rs/", "http://s.rs/pocetna", anchor_text="SRP", target_language="sr"),
        # a menu link without a language word is not a switcher
        SwitchLink("http://s.rs/kontakt", "http://s.rs/about", anchor_text="About us", target_language="en"),
    ]
    pairs = {(p.source_url, p.target_url) for p in switch_pairs(LANGS, links)}
    assert pairs == {("http://s.rs/about", "http://s.rs/o-nama"), ("http://s.rs/", "http://s.rs/pocetna")}


def test_site_discovery_ranks_external_sites_by_summed_measures():
    seeds = ["a.rs", "b.rs"]
    edges = {("a.rs", "b.rs"): 2, ("b.rs", "a.rs"): 2, ("a.rs", "x.rs"): 5, ("b.rs", "x.rs"): 1,
             ("a.rs", "y.rs"): 1, ("b.rs", "z.rs"): 7, ("x.rs", "a.rs"): 9}
    credibility = {"a.rs": 0.8, "b.rs": 0.2}
    scores = seed_scores(seeds, edges, credibility)
    assert scores.linkout == {"a.rs": 2, "b.rs": 2}  # Def. 6: links to the other seeds only
    assert scores.pagerank == pytest.approx({"a.rs": 0.5, "b.rs": 0.5})  # symmetric seed graph
    found = discover_sites(seeds, edges, credibility)
    by_site = {d.site: d for d in found}
    assert by_site["x.rs"].sum_linkout == 4 and by_site["x.rs"].sum_pr == pytest.approx(1.0)
    assert by_site["y.rs"].sum_wpr == pytest.approx(0.8 * 0.5)
    assert by_site["z.rs"].sum_wpr == pytest.approx(0.2 * 0.5)
    assert [d.site for d in found] == ["x.rs", "y.rs", "z.rs"]
    assert [d.site for d in discover_sites(seeds, edges, credibility, top_k=2)] == ["x.rs", "y.rs"]
    assert "a.rs" not in by_site  # seeds are not candidates


def test_site_discovery_rejects_an_unknown_measure():
    with pytest.raises(ValueError, match="unknown measure"):
        discover_sites(["a.rs"], {}, {}, measure="hits")


def test_search_provider_has_no_default_and_says_so():
    with pytest.raises(NotConfigured, match="no search provider"):
        SearchProvider().search("inurl:en site:gov.rs")


def test_search_queries_come_from_the_pattern_markers():
    assert build_queries([("en", "sr"), ("", "sr"), ("english", "srpski")], ["gov.rs"]) == [
        "inurl:en site:gov.rs filetype:html", "inurl:english site:gov.rs filetype:html"]


class FixedResults(SearchProvider):
    """A provider backed by a fixed result list (stands for a real search API in this test)."""

    def __init__(self, results):
        self.results, self.queries = results, []

    def search(self, query, limit=100):
        self.queries.append(query)
        return self.results[:limit]


def test_search_variant_rewrites_results_with_the_top_patterns():
    from evaluation.pairing.patterns import global_credibility, mine_site_patterns
    from evaluation.pairing.search import search_engine_guesses

    site = mine_site_patterns("t.rs", {f"http://t.rs/{lang}/{n}.html": lang for lang in ("en", "sr") for n in "ab"})
    provider = FixedResults(["http://vlada.gov.rs/en/vesti.html"])
    guesses = search_engine_guesses(provider, global_credibility([site]), ["gov.rs"])
    assert provider.queries == ["inurl:en site:gov.rs filetype:html"]
    assert [(g.page_url, g.guessed_url) for g in guesses] == [
        ("http://vlada.gov.rs/en/vesti.html", "http://vlada.gov.rs/sr/vesti.html")]
    with pytest.raises(NotConfigured):
        search_engine_guesses(SearchProvider(), global_credibility([site]), ["gov.rs"])


def test_hreflang_copied_from_a_template_to_every_page_is_not_a_pair():
    alternates = {"http://s.rs/pocetna": {"en": "http://s.rs/"}, "http://s.rs/kontakt": {"en": "http://s.rs/"},
                  "http://s.rs/": {"sr": "http://s.rs/pocetna"}}
    pairs = hreflang_pairs(LANGS, alternates)
    assert [(p.source_url, p.target_url) for p in pairs] == [("http://s.rs/", "http://s.rs/pocetna")]
