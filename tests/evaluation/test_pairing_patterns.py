"""Pupsniffer Def. 1–5 on small sites computed by hand, and the linear-cost index."""
import random

import pytest

from evaluation.pairing.patterns import global_credibility, mine_pairs, mine_site_patterns
from evaluation.pairing.units import url_units

LEGCO = "http://www.legco.gov.hk/yr99-00/{}/fc/esc/minutes/es061099.htm"


def test_url_is_split_into_case_folded_path_and_file_name_units():
    units = url_units("http://www.Legco.gov.hk/yr99-00/English/fc/es061099.HTM?lang=EN&id=5")
    assert units.path == {"yr99", "00", "english", "fc"}
    assert units.file == {"es061099", "htm", "lang", "en", "id", "5"}
    assert units.domain == "legco.gov.hk"


def test_subdomain_labels_are_path_units_and_www_is_ignored():
    assert url_units("http://en.site.rs/a.html").path == {"en"}
    assert url_units("http://www.site.rs/a.html").path == frozenset()
    assert url_units("http://en.site.rs/a.html").domain == url_units("http://site.rs/a.html").domain


@pytest.mark.parametrize("host", ["sr.site-a.test", "www.rts.co.rs", "en.ana.github.io", "sr.site.acamilic.gh.test",
                                  "127.0.0.1"])
def test_pairing_and_the_crawl_read_one_registrable_domain(host):
    from crawlweb.crawler.urls import registrable_domain

    assert url_units(f"http://{host}/a.html").domain == registrable_domain(host)


def test_two_sites_under_a_suffix_the_list_does_not_know_never_pair():
    # the test web's .test names: 'sr.site-a.test' is site-a's page, not a page of one site 'test'
    assert url_units("http://sr.site-a.test/a.html").path == {"sr"}
    found, _ = mine_pairs(["http://en.site-a.test/a.html"], ["http://sr.site-b.test/a.html"])
    assert not found


def test_bad_url_gets_a_clear_error():
    with pytest.raises(ValueError, match="not an absolute URL"):
        url_units("about.html")


def test_legco_example_yields_english_chinese_pattern():
    found, _ = mine_pairs([LEGCO.format("english")], [LEGCO.format("chinese")])
    assert set(found) == {("english", "chinese")}
    assert found[("english", "chinese")].pairs == {(LEGCO.format("english"), LEGCO.format("chinese"))}


def test_pattern_in_file_name_and_across_path_and_file_name():
    found, _ = mine_pairs(["http://s.rs/docs/report_en.pdf"], ["http://s.rs/docs/report_sr.pdf"])
    assert ("en", "sr") in found
    # the language marker moves from the directory to the file name: found in the union set
    found, _ = mine_pairs(["http://s.rs/en/about.html"], ["http://s.rs/about-sr.html"])
    assert ("en", "sr") in found


def test_empty_unit_pattern_pairs_a_bare_file_name_with_its_suffixed_twin():
    found, _ = mine_pairs(["http://s.rs/about.html"], ["http://s.rs/about-sr.html"])
    assert set(found) == {("", "sr")}


def test_subdomains_yield_language_patterns():
    found, _ = mine_pairs(["http://en.site.rs/a.html"], ["http://sr.site.rs/a.html"])
    assert ("en", "sr") in found
    found, _ = mine_pairs(["http://en.site.rs/a.html"], ["http://site.rs/a.html"])
    assert ("en", "") in found


def test_pairs_never_cross_registrable_domains():
    found, _ = mine_pairs(["http://a.rs/en/x.html"], ["http://b.rs/sr/x.html"])
    assert found == {}


def test_two_owners_on_one_hosting_suffix_are_two_domains():
    # GitHub Pages, Blogger: the public-suffix list's private section gives each owner a domain, so the
    # owners' names are no pattern ⟨ana, marko⟩ between two sites; an owner's sr/ and en/ pages are one site
    found, _ = mine_pairs(["https://ana.github.io/x.html"], ["https://marko.github.io/x.html"])
    assert found == {}
    found, _ = mine_pairs(["https://ana.github.io/en/x.html"], ["https://ana.github.io/sr/x.html"])
    assert list(found) == [("en", "sr")]


def legco_site():
    pages = {LEGCO.format("english").replace("es061099", n): "en" for n in ("a", "b", "c")}
    pages.update({LEGCO.format("chinese").replace("es061099", n): "zh" for n in ("a", "b")})
    return pages


def test_frequency_local_and_site_credibility_follow_def_2_3_5():
    site = mine_site_patterns("legco", legco_site(), languages=("en", "zh"))
    entry = site.patterns[("english", "chinese")]
    assert entry.frequency == 2  # Def. 2: pairs a↔a, b↔b
    assert entry.pages_matched == 4  # N = 2·p
    assert entry.local_credibility == pytest.approx(4 / 5)  # Def. 3: N / |w|
    assert site.credibility == pytest.approx(max(p.local_credibility for p in site.patterns.values()))
    assert set(site.patterns) == {("english", "chinese")}


def test_site_size_can_include_pages_of_other_languages():
    pages = legco_site() | {"http://www.legco.gov.hk/fr/a.htm": "fr"}
    site = mine_site_patterns("legco", pages, languages=("en", "zh"))
    assert site.patterns[("english", "chinese")].local_credibility == pytest.approx(4 / 6)


def two_sites():
    a = {f"http://a.rs/{lang}/{n}.html": lang for lang in ("en", "sr") for n in ("x", "y")}
    b = {"http://b.rs/en/x.html": "en", "http://b.rs/sr/x.html": "sr"}
    b.update({f"http://b.rs/en/only{n}.html": "en" for n in range(4)})
    return mine_site_patterns("a.rs", a), mine_site_patterns("b.rs", b)


def test_global_credibility_follows_def_4_normalized_and_unnormalized():
    site_a, site_b = two_sites()
    assert site_a.patterns[("en", "sr")].local_credibility == pytest.approx(4 / 4)
    assert site_b.patterns[("en", "sr")].local_credibility == pytest.approx(2 / 6)
    g = global_credibility([site_a, site_b])[("en", "sr")]
    total = 4 + 6
    assert g.credibility == pytest.approx(4 / total * 1.0 + 2 / total * (2 / 6))
    assert g.credibility_unnormalized == pytest.approx(4 * 1.0 + 2 * (2 / 6))
    assert (g.sites, g.frequency) == (2, 3)


def test_mining_rejects_an_empty_site_and_a_bad_language_pair():
    with pytest.raises(ValueError, match="no pages"):
        mine_site_patterns("empty", {})
    with pytest.raises(ValueError, match="two different language codes"):
        mine_site_patterns("x", {"http://a.rs/": "en"}, languages=("en", "en"))


def synthetic_site(n_docs, seed):
    rng = random.Random(seed)
    src, tgt = [], []
    for i in range(n_docs):
        slug = f"{rng.choice(['vesti', 'zakon', 'plan'])}-{i}"
        src.append(f"http://s.rs/en/{rng.randint(2000, 2020)}/{slug}.html")
        tgt.append(src[-1].replace("/en/", "/sr/") if rng.random() < 0.8 else f"http://s.rs/sr/x/{slug}-{i}.html")
    return src, tgt


def test_candidate_generation_costs_about_n_times_units_not_n_squared():
    small = mine_pairs(*synthetic_site(500, seed=1))[1]
    large = mine_pairs(*synthetic_site(2000, seed=1))[1]
    # four times the URLs: four times the index work, not sixteen
    assert 3.5 < large.index_insertions / small.index_insertions < 4.5
    assert large.comparisons / small.comparisons < 5
    assert large.comparisons < 0.01 * 2000 * 2000
    assert large.index_insertions / large.urls < 25


def test_generic_skeleton_bucket_is_skipped_to_stay_linear():
    src = [f"http://s.rs/page{i}.html" for i in range(200)]
    tgt = [f"http://s.rs/strana{i}.html" for i in range(200)]
    exact, exact_stats = mine_pairs(src, tgt, max_bucket_pairs=None)
    capped, capped_stats = mine_pairs(src, tgt)
    assert exact_stats.comparisons >= 200 * 200  # every slug pair shares the remainder {html}
    assert capped_stats.skipped_buckets >= 1 and capped_stats.comparisons < 1000
    assert all(p.frequency == 1 for p in exact.values()) and capped == {}
