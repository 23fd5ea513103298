"""Cyrillic–Latin Serbian: script variants are recorded, never proposed as sr–en pairs."""
from evaluation.pairing.pipeline import SiteInput, run_pairing
from evaluation.pairing.records import PageRecord
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
