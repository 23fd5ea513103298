"""Cyrillic–Latin Serbian: script variants are recorded, never proposed as sr–en pairs."""
from evaluation.pairing.methods import combine_candidates
from evaluation.pairing.pipeline import SiteInput, run_pairing
from evaluation.pairing.records import CandidatePair, PageRecord
from evaluation.pairing.scripts import script_variant_pairs, to_latin, transliteration_similarity
from evaluation.pairing.similarity import filter_pair

PAGES = [PageRecord(f"http://s.rs/{d}/{n}.html", lang) for d, lang in
         (("lat", "sr-Latn"), ("cir", "sr-Cyrl"), ("en", "en")) for n in ("a", "b", "c")]


def test_latin_and_cyrillic_twins_become_script_variants_not_pairs():
    alternates = {"http://s.rs/lat/a.html": {"sr-Cyrl": "http://s.rs/cir/a.html"}}
    result = run_pairing([SiteInput("s.rs", PAGES, alternates=alternates)])
    proposed = [c for cands in result.by_method.values() for c in cands]
    assert proposed, "the English pages still pair with the Serbian ones"
    for cand in proposed:
        assert cand.source_url.startswith("http://s.rs/en/")
        assert not cand.target_url.startswith("http://s.rs/en/")
    variants = {(v.latin_url, v.cyrillic_url) for v in result.script_variants}
    assert variants == {(f"http://s.rs/lat/{n}.html", f"http://s.rs/cir/{n}.html") for n in "abc"}


def test_script_variants_come_from_declarations_too():
    pages = [PageRecord("http://s.rs/o-nama", "sr", "Latn"), PageRecord("http://s.rs/о-нама", "sr", "Cyrl")]
    variants = script_variant_pairs(pages, declared=[("http://s.rs/о-нама", "http://s.rs/o-nama")])
    assert [(v.latin_url, v.cyrillic_url, v.evidence) for v in variants] == [
        ("http://s.rs/o-nama", "http://s.rs/о-нама", "declared")]


def test_transliteration_maps_serbian_cyrillic_to_latin():
    assert to_latin("Љубљана, Џеп, Ђорђе, шљива") == "Ljubljana, Džep, Đorđe, šljiva"
    assert transliteration_similarity("Добар дан, ово је тест.", "Dobar dan, ovo je test.") == 1.0
    assert transliteration_similarity("Добар дан", "Good afternoon") < 0.5


def test_a_mislabelled_latin_copy_of_a_cyrillic_page_is_filtered_as_script_variant():
    links = ("http://s.rs/kontakt",)
    latin = PageRecord("http://s.rs/lat/a", "en", "", 30, links, "<p>Dobar dan, ovo je naša stranica o nama.</p>")
    cyrillic = PageRecord("http://s.rs/cir/a", "sr", "", 30, links, "<p>Добар дан, ово је наша страница о нама.</p>")
    verdict = filter_pair(latin, cyrillic, {})
    assert not verdict.keep and "transliterated" in verdict.reason


def test_one_english_page_keeps_both_its_latin_and_its_cyrillic_serbian_page_as_two_pairs():
    result = run_pairing([SiteInput("s.rs", PAGES)])
    kept = {(c.source_url, c.target_url) for c in result.combined()}
    for n in "abc":
        assert (f"http://s.rs/en/{n}.html", f"http://s.rs/lat/{n}.html") in kept
        assert (f"http://s.rs/en/{n}.html", f"http://s.rs/cir/{n}.html") in kept
    assert len(kept) == 6
    assert result.scripts["http://s.rs/cir/a.html"] == "cyrl" and result.scripts["http://s.rs/lat/a.html"] == "latn"


def test_each_serbian_page_still_keeps_one_english_page_and_each_script_one_serbian_page():
    en, en2 = "http://s.rs/en/a.html", "http://s.rs/en/a2.html"
    lat, lat2, cyr = "http://s.rs/lat/a.html", "http://s.rs/lat/a2.html", "http://s.rs/cir/a.html"
    scripts = {lat: "latn", lat2: "latn", cyr: "cyrl"}
    proposals = [CandidatePair(en, lat, "hreflang", score=1.0), CandidatePair(en, cyr, "local", score=0.5),
                 CandidatePair(en, lat2, "local", score=0.4),  # a second Latin page for the same English page
                 CandidatePair(en2, lat, "local", score=0.3)]  # a second English page for the Latin page
    kept = {(c.source_url, c.target_url) for c in combine_candidates(proposals, scripts=scripts)}
    assert kept == {(en, lat), (en, cyr)}
    assert len(combine_candidates(proposals)) == 1, "without scripts: one counterpart per page, as the method"
