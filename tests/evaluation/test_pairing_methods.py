"""Methods local, rescue_global, rescue_domain, deep and combine."""
import pytest

from evaluation.pairing.deep import (apply_pattern, confirm_deep_pair, conventional_patterns, credible_site_patterns,
                                     deep_guesses, entry_pages, home_pages)
from evaluation.pairing.methods import (combine_candidates, domain_credibility, local_pairs, one_to_one_among_kept,
                                        rescue_domain_pairs, rescue_global_pairs)
from evaluation.pairing.patterns import global_credibility, mine_site_patterns
from evaluation.pairing.records import CandidatePair


def site(host, n_pairs, n_untranslated):
    """n_pairs /en/x ↔ /sr/x pairs plus untranslated English pages."""
    pages = {}
    for i in range(n_pairs):
        pages[f"http://{host}/en/doc{i}.html"] = "en"
        pages[f"http://{host}/sr/doc{i}.html"] = "sr"
    for i in range(n_untranslated):
        pages[f"http://{host}/en/{i}/only.html"] = "en"
    return mine_site_patterns(host, pages)


def test_local_method_keeps_patterns_at_or_above_the_threshold():
    strong = site("strong.rs", 2, 0)  # C = 4/4
    weak = site("weak.rs", 2, 46)  # C = 4/50 = 0.08
    assert {(c.source_url, c.target_url) for c in local_pairs(strong)} == {
        ("http://strong.rs/en/doc0.html", "http://strong.rs/sr/doc0.html"),
        ("http://strong.rs/en/doc1.html", "http://strong.rs/sr/doc1.html")}
    assert all(c.method == "local" and c.pattern == ("en", "sr") for c in local_pairs(strong))
    assert local_pairs(weak) == []
    assert len(local_pairs(weak, threshold=0.08)) == 2


def test_a_pattern_seen_once_needs_min_frequency_one():
    single = site("one.rs", 1, 0)
    assert local_pairs(single) == []
    assert len(local_pairs(single, min_frequency=1)) == 1


def test_rescue_global_keeps_weak_local_patterns_with_high_unnormalized_global_credibility():
    strong, weak = site("strong.rs", 2, 0), site("weak.rs", 2, 46)
    g = global_credibility([strong, weak])
    unnormalized = 4 * 1.0 + 4 * 0.08
    assert g[("en", "sr")].credibility_unnormalized == pytest.approx(unnormalized)
    rescued = rescue_global_pairs(weak, g, theta_unnormalized=unnormalized)
    assert len(rescued) == 2 and {c.method for c in rescued} == {"rescue_global"}
    assert rescue_global_pairs(weak, g, theta_unnormalized=unnormalized + 0.01) == []
    assert rescue_global_pairs(strong, g, theta_unnormalized=0.0) == []  # already local


def test_rescue_domain_lowers_the_threshold_only_in_credible_domains():
    strong, weak, other = site("a.gov.rs", 2, 0), site("b.gov.rs", 2, 46), site("c.example.com", 2, 46)
    domains = {"a.gov.rs": "gov.rs", "b.gov.rs": "gov.rs", "c.example.com": "example.com"}
    cred = domain_credibility([strong, weak, other], domains)
    assert cred["gov.rs"] == pytest.approx((1.0 + 0.08) / 2)
    rescued = rescue_domain_pairs(weak, "gov.rs", cred, min_domain_credibility=0.5, lowered_threshold=0.05)
    assert len(rescued) == 2 and {c.method for c in rescued} == {"rescue_domain"}
    assert rescue_domain_pairs(other, "example.com", cred, min_domain_credibility=0.5, lowered_threshold=0.05) == []
    assert rescue_domain_pairs(weak, "gov.rs", cred, min_domain_credibility=0.6, lowered_threshold=0.05) == []


def test_deep_rewrites_a_marker_unit_both_ways():
    url = "http://www.fehd.gov.hk/tc/LLB_web/cagenda_20070904.htm"
    assert apply_pattern(url, ("en", "tc"), forward=False) == [url.replace("/tc/", "/en/")]
    assert apply_pattern("http://sr.site.rs/a.html", ("en", "sr"), forward=False) == ["http://en.site.rs/a.html"]


def test_deep_inserts_and_removes_the_empty_unit_pattern_where_examples_put_it():
    examples = [("http://s.rs/x.html", "http://s.rs/x_sr.html")]
    assert apply_pattern("http://s.rs/a/about.html", ("", "sr"), examples=examples) == ["http://s.rs/a/about_sr.html"]
    prefixed = [("http://s.rs/x.html", "http://s.rs/sr/x.html")]
    assert apply_pattern("http://s.rs/about.html", ("", "sr"), examples=prefixed) == ["http://s.rs/sr/about.html"]
    assert apply_pattern("http://s.rs/about-sr.html", ("", "sr"), forward=False) == ["http://s.rs/about.html"]
    assert apply_pattern("http://s.rs/sr/about.html", ("", "sr"), forward=False) == ["http://s.rs/about.html"]


def test_deep_guesses_use_the_top_global_patterns_and_confirmation_checks_language():
    trained = mine_site_patterns("t.rs", {"http://t.rs/a.html": "en", "http://t.rs/a-sr.html": "sr",
                                          "http://t.rs/b.html": "en", "http://t.rs/b-sr.html": "sr"})
    g = global_credibility([trained])
    pages = {"http://n.rs/products.html": "en", "http://n.rs/index.html": "en", "http://n.rs/index-sr.html": "sr"}
    guesses = deep_guesses(pages, {"http://n.rs/index.html", "http://n.rs/index-sr.html"}, g)
    assert [(x.page_url, x.guessed_url, x.expected_language) for x in guesses] == [
        ("http://n.rs/products.html", "http://n.rs/products-sr.html", "sr")]
    guess = guesses[0]
    pair = confirm_deep_pair(guess, exists=True, language="sr-Latn")
    assert (pair.source_url, pair.target_url, pair.method) == ("http://n.rs/products.html",
                                                               "http://n.rs/products-sr.html", "deep")
    assert confirm_deep_pair(guess, exists=False, language="sr") is None
    assert confirm_deep_pair(guess, exists=True, language="en") is None


def test_deep_guesses_from_a_serbian_page_point_back_to_english():
    trained = mine_site_patterns("t.rs", {f"http://t.rs/{lang}/{n}.html": lang for lang in ("en", "sr")
                                          for n in "ab"})
    guesses = deep_guesses({"http://n.rs/sr/vesti.html": "sr"}, set(), global_credibility([trained]))
    assert [(g.guessed_url, g.expected_language) for g in guesses] == [("http://n.rs/en/vesti.html", "en")]
    pair = confirm_deep_pair(guesses[0], True, "en")
    assert (pair.source_url, pair.target_url) == ("http://n.rs/en/vesti.html", "http://n.rs/sr/vesti.html")


def test_combine_merges_methods_and_keeps_one_counterpart_per_page():
    a = CandidatePair("http://s.rs/en/a", "http://s.rs/sr/a", "local", ("en", "sr"), 0.5)
    same = CandidatePair("http://s.rs/en/a", "http://s.rs/sr/a", "hreflang", None, 1.0)
    rival = CandidatePair("http://s.rs/en/a", "http://s.rs/sr/b", "local", ("x", "y"), 0.2)
    merged = combine_candidates([a, rival], [same])
    assert [(c.key, c.method, c.methods) for c in merged] == [
        (("http://s.rs/en/a", "http://s.rs/sr/a"), "hreflang", {"hreflang", "local"})]
    assert len(combine_candidates([a, rival], one_to_one=False)) == 2


def test_conventional_patterns_are_guessed_on_sites_that_never_showed_them():
    assert conventional_patterns(("sr", "en")) == [("sr", "en"), ("rs", "en"), ("lat", "en"), ("", "en"), ("sr", "")]
    pages = {"http://m.rs/sr/o-nama.html": "sr", "http://m.rs/lat/vesti.html": "sr-Latn"}
    guesses = deep_guesses(pages, set(), {}, languages=("sr", "en"), conventions=conventional_patterns(("sr", "en")))
    urls = {(g.page_url, g.guessed_url) for g in guesses}
    assert ("http://m.rs/sr/o-nama.html", "http://m.rs/en/o-nama.html") in urls  # ⟨sr, en⟩
    assert ("http://m.rs/sr/o-nama.html", "http://m.rs/o-nama.html") in urls  # ⟨sr, ε⟩
    assert ("http://m.rs/lat/vesti.html", "http://m.rs/en/vesti.html") in urls  # ⟨lat, en⟩
    assert all(g.expected_language == "en" for g in guesses)
    assert deep_guesses(pages, set(), {}, languages=("sr", "en")) == [], "without conventions: top-N patterns only"


def test_a_sites_own_credible_pattern_guesses_for_every_unpaired_page_first():
    site = mine_site_patterns("k.rs", {"http://k.rs/a.php?lang=srb": "sr", "http://k.rs/a.php?lang=eng": "en",
                                       "http://k.rs/b.php?lang=srb": "sr", "http://k.rs/b.php?lang=eng": "en",
                                       "http://k.rs/c.php?lang=srb": "sr"}, languages=("sr", "en"))
    own = credible_site_patterns(site, threshold=0.1, min_frequency=2)
    assert [g.pattern for g in own] == [("srb", "eng")]
    guesses = deep_guesses({"http://k.rs/c.php?lang=srb": "sr"}, set(), {}, languages=("sr", "en"), site_patterns=own,
                           conventions=conventional_patterns(("sr", "en")))
    assert guesses[0].guessed_url == "http://k.rs/c.php?lang=eng" and guesses[0].pattern == ("srb", "eng")


def test_a_home_stored_as_its_directory_url_is_guessed_from_its_index_file_too():
    # mihajlominic/mihajlo.github.io (the real development web): index.html ↔ index-sr.html, and no
    # page links to either by name, so the crawl knows the English home only as /.
    guesses = deep_guesses({"http://k.test/": "en"}, set(), {}, languages=("sr", "en"),
                           conventions=conventional_patterns(("sr", "en")))
    assert ("http://k.test/", "http://k.test/index-sr.html") in {(g.page_url, g.guessed_url) for g in guesses}
    assert all(g.page_url == "http://k.test/" for g in guesses), "the guess belongs to the page as stored"


def test_a_sites_home_pages_are_its_root_and_the_roots_index_file():
    # nsd-electronic (the real development web): Serbian at / and /o-nama.html, English under /en/ that
    # only an external script's switch names; the home alone gets the conventional guesses.
    pages = {"http://nsd.test/": "sr", "http://nsd.test/index.html": "sr", "http://nsd.test/o-nama.html": "sr",
             "http://nsd.test/sr/index.html": "sr", "http://nsd.test/index.php?page=2": "sr"}
    assert home_pages(pages) == {"http://nsd.test/": "sr", "http://nsd.test/index.html": "sr"}
    guesses = deep_guesses(home_pages(pages), set(), {}, top_n=0, languages=("sr", "en"),
                           conventions=conventional_patterns(("sr", "en")))
    assert "http://nsd.test/en/" in {g.guessed_url for g in guesses}
    assert {g.page_url for g in guesses} <= {"http://nsd.test/", "http://nsd.test/index.html"}


def test_a_sites_entrance_is_its_home_and_its_shallowest_pages():
    pages = {"http://m.test/sr/istorija/1990/jun.html": "sr", "http://m.test/sr/": "sr", "http://m.test/sr/onama.html": "sr",
             "http://m.test/sr/istorija/": "sr", "http://m.test/": "sr", "http://m.test/sr/kontakt.html": "sr"}
    assert list(entry_pages(pages, 2)) == ["http://m.test/", "http://m.test/sr/", "http://m.test/sr/istorija/"]
    assert entry_pages(pages, 0) == {"http://m.test/": "sr"}


def test_a_one_language_site_guessed_from_its_entrance_asks_a_few_urls_not_one_per_page():
    # 200 Serbian pages under /sr/ and no English one: every page would cost a HEAD request for /en/…
    pages = {f"http://mono.test/sr/clanak-{i}.html": "sr" for i in range(200)} | {"http://mono.test/sr/": "sr"}
    top = global_credibility([site("bilingual.rs", 20, 0)])  # ⟨en, sr⟩ from a site with /en/ and /sr/ twins
    every = deep_guesses(pages, set(), top)
    entrance = deep_guesses(entry_pages(pages, 3), set(), top)
    assert len(every) == 202  # /sr/ guesses /en/ and /en/index.html
    assert {g.guessed_url for g in entrance} == {"http://mono.test/en/", "http://mono.test/en/index.html",
                                                 "http://mono.test/en/clanak-0.html", "http://mono.test/en/clanak-1.html"}


def test_a_pair_the_filter_removes_takes_no_page_from_another():
    # A URL pattern pairs the (Serbian-labelled) cart page with the English home page, ahead of the deep
    # guess home ↔ English home; the filter removes the cart pair, so the home pages keep each other.
    cart = CandidatePair("http://x.rs/korpa_en.html", "http://x.rs/index_en.html", "local", ("", "_en"), 0.2)
    home = CandidatePair("http://x.rs/", "http://x.rs/index_en.html", "deep", ("", "_en"), 0.2)
    assert {c.key for c in combine_candidates([cart], [home])} == {cart.key}, "by priority alone the cart pair wins"
    assert one_to_one_among_kept([[cart], [home]], lambda c: c is not cart) == {home.key}
    assert one_to_one_among_kept([[cart], [home]], lambda c: True) == {cart.key}


def test_dead_links_are_guessed_with_the_language_units_the_sites_pages_carry():
    """A theatre's menu links istorija.html, kontakt.html …, which a script rewrites by the visitor's language
    into istorija_sr.html or istorija_en.html; the crawl finds those links dead (404). Its one pair,
    index_sr.html ↔ index_en.html, shows where each language's unit goes, and its links name index.html."""
    from evaluation.pairing.deep import dead_link_guesses, language_unit_forms, unit_less_forms
    from evaluation.pairing.patterns import GlobalPattern

    site = "http://pozoriste.rs"
    pattern = GlobalPattern(("sr", "en"), 0.4, 0.4, 1, 1, [(f"{site}/index_sr.html", f"{site}/index_en.html")])
    assert unit_less_forms([pattern]) == {f"{site}/index.html"}
    linked = {f"{site}/index.html", f"{site}/istorija.html"}
    assert language_unit_forms([pattern], linked, ("sr", "en")) == {
        ("sr", "en"): {"sr": ("before_ext", "_sr"), "en": ("before_ext", "_en")}}
    dead = [f"{site}/istorija.html", f"{site}/kontakt.html", f"{site}/js/menu.js", f"{site}/sr_sr.html",
            f"{site}/files/izvestaj.pdf"]
    guesses = dead_link_guesses(dead, [pattern], linked, ("sr", "en"))
    assert [(g.guessed_url.rsplit("/", 1)[1], g.expected_language, g.forward) for g in guesses] == [
        ("istorija_sr.html", "sr", False), ("istorija_en.html", "en", True),
        ("kontakt_sr.html", "sr", False), ("kontakt_en.html", "en", True)]
    assert all(g.page_url in dead and g.pattern == ("sr", "en") for g in guesses)
    assert dead_link_guesses(dead, [pattern], {f"{site}/istorija.html"}, ("sr", "en")) == [], \
        "no link names a page without its unit: the dead links are no such pages"
    folders = GlobalPattern(("sr", "en"), 0.4, 0.4, 1, 2, [(f"{site}/sr/about.html", f"{site}/en/about.html")])
    assert [g.guessed_url for g in dead_link_guesses([f"{site}/team.html"], [folders], {f"{site}/about.html"},
                                                     ("sr", "en"))] == [f"{site}/sr/team.html", f"{site}/en/team.html"]
    epsilon = GlobalPattern(("", "en"), 0.4, 0.4, 1, 2, [(f"{site}/about.html", f"{site}/about-en.html")])
    assert dead_link_guesses(dead, [epsilon], linked, ("sr", "en")) == [], "⟨ε, en⟩: the dead link is the Serbian URL"
