"""The bilingual lexicon: dictd files read, words folded, and what its coverage says of real pages."""
from pathlib import Path

import pytest

from crawlweb.crawler.htmlparse import parse_html
from training.learn.features import FEATURE_NAMES, pair_features
from evaluation.bodies.lexicon import (LEXICON_FEATURE_NAMES, Lexicon, LexiconError, lexicon_features, read_dictd, stem,
                                       stems)
from evaluation.bodies.page_body import SiteLines, bodies
from training.learn.pair_classifier import CLASSIFIER_FEATURES

from ..dictd import DEBIAN_LEXICON, write_dictd
from ..evaluation.realsites import REAL_SITES, load_real_sites


@pytest.fixture
def small_lexicon(tmp_path) -> Lexicon:
    forward = write_dictd(tmp_path / "sr-en", {
        "vrijeme": "time, weather", "soba": "room, chamber", "hotel": "hotel", "doručak": "breakfast",
        "pogled": "view, look", "rijeka": "river", "cijena": "price", "dobar dan": "good day"})
    backward = write_dictd(tmp_path / "en-sr", {
        "room": "soba", "breakfast": "doručak", "view": "pogled", "river": "rijeka", "price": "cijena",
        "weather": "vrijeme", "hotel": "hotel"})
    return Lexicon.from_dictd(forward, backward)


def test_serbian_cyrillic_latin_and_croatian_ijekavian_spellings_are_one_word():
    assert stem("време") == stem("vreme") == stem("vrijeme") == stem("Vrijeme")
    assert stem("soba") == stem("sobom") == stem("sobe") == stem("Собу"), "an inflected word meets its other forms"
    assert stem("prices") == stem("price") and stem("massages") == stem("massage")
    assert stem("doručak") == stem("dorucak") == stem("доручак")
    assert stem("rijeka") == stem("reka") and stem("ђак") == stem("djak")


def test_a_dictd_dictionary_is_read_by_its_index_multi_word_headwords_left_out(tmp_path):
    entries = read_dictd(write_dictd(tmp_path / "d", {"soba": "room, chamber", "dobar dan": "good day",
                                                      "pogled": "view"}))
    assert entries == {stem("soba"): {stem("room"), stem("chamber")}, stem("pogled"): {stem("view")}}


def test_a_missing_or_broken_dictionary_is_named_in_the_error(tmp_path):
    with pytest.raises(LexiconError, match=r"nowhere\.index: no such dictionary file"):
        read_dictd(tmp_path / "nowhere")
    base = write_dictd(tmp_path / "d", {"soba": "room"})
    Path(f"{base}.index").write_text("soba 0 12\n", encoding="utf-8")
    with pytest.raises(LexiconError, match=r"d\.index, line 1: expected headword, offset and length"):
        read_dictd(base)
    Path(f"{base}.index").write_text("soba\t0\t1-\n", encoding="utf-8")
    with pytest.raises(LexiconError, match="must be base 64"):
        read_dictd(base)
    Path(f"{base}.dict.dz").write_bytes(b"not gzip at all")
    Path(f"{base}.index").write_text("soba\tA\tM\n", encoding="utf-8")
    with pytest.raises(LexiconError, match=r"d\.dict\.dz: not a dictzip file"):
        read_dictd(base)


def test_a_translated_body_is_covered_both_ways_and_a_body_of_its_own_is_not(small_lexicon):
    serbian = ["Soba sa pogledom na reku, cena sa doručkom"]
    translated = ["A room with a view of the river, the price with breakfast"]
    of_its_own = ["Book early: the weather in spring is perfect for hotel guests"]
    good = lexicon_features(small_lexicon, serbian, translated)
    bad = lexicon_features(small_lexicon, serbian, of_its_own)
    assert good["lexicon_min_coverage"] == 1.0 and good["lexicon_missing"] == 0.0
    assert bad["lexicon_min_coverage"] < 0.5 < good["lexicon_mean_coverage"]
    assert lexicon_features(small_lexicon, translated, serbian) == good, "the order of the two pages does not matter"


def test_without_a_lexicon_or_known_words_the_features_say_missing(small_lexicon):
    missing = {**{name: 0.0 for name in LEXICON_FEATURE_NAMES}, "lexicon_missing": 1.0}
    assert lexicon_features(None, ["Soba"], ["Room"]) == missing
    assert lexicon_features(small_lexicon, ["Kontakt forma"], ["Contact form"]) == missing


def test_the_pair_features_carry_the_lexicon_reading(small_lexicon):
    pair = {"method": "switch", "scores": {}, "source_text": "Meni\nSoba sa pogledom na reku, cena sa doručkom",
            "target_text": "Menu\nA room with a view of the river, the price with breakfast"}
    named = dict(zip(FEATURE_NAMES, pair_features(pair, lexicon=small_lexicon)))
    assert named["lexicon_min_coverage"] == 1.0 and named["lexicon_missing"] == 0.0
    assert dict(zip(FEATURE_NAMES, pair_features(pair)))["lexicon_missing"] == 1.0


def test_a_classifiers_features_alone_are_the_same_and_the_alignment_it_does_not_read_is_skipped(small_lexicon):
    pair = {"method": "switch", "scores": {"length_ratio": 1.2}, "similarity": 0.4,
            "source_text": "Meni\nSoba sa pogledom na reku, cena sa doručkom\nHotel je blizu reke",
            "target_text": "Menu\nA room with a view of the river, the price with breakfast\nThe hotel is near the river"}
    every = dict(zip(FEATURE_NAMES, pair_features(pair, lexicon=small_lexicon)))
    needed = dict(zip(FEATURE_NAMES, pair_features(pair, lexicon=small_lexicon, needed=CLASSIFIER_FEATURES)))
    assert {name: needed[name] for name in CLASSIFIER_FEATURES} == {name: every[name] for name in CLASSIFIER_FEATURES}
    assert every["aligned_share"] > 0 and needed["aligned_share"] == 0.0  # not in CLASSIFIER_FEATURES


@pytest.mark.skipif(not REAL_SITES.is_dir(), reason=f"real-site data not found at {REAL_SITES}")
def test_on_real_sites_a_pages_translation_is_the_page_the_dictionary_covers_best():
    # Debian's FreeDict Croatian-English pair (scripts/install.sh installs it), on the 8 real sites:
    # of every English page of its site, a Serbian page's listed counterpart must be the one whose
    # template-free body the dictionary covers best (both ways), for nearly every listed pair.
    lexicon = Lexicon.from_dictd(*DEBIAN_LEXICON)
    best = listed = 0
    for site in load_real_sites():
        texts = {url: parse_html(html, url).text for url, html in site.files.items()}
        lines = SiteLines.from_texts(texts.values())
        english = {en for _, en in site.truth_pairs}

        def coverage(sr: str, en: str) -> float:
            return lexicon_features(lexicon, *bodies(texts[sr], texts[en], lines))["lexicon_min_coverage"]

        for sr, en in site.truth_pairs:
            listed += 1
            best += all(coverage(sr, en) > coverage(sr, other) for other in english - {en})
    assert listed >= 50
    assert best >= 0.9 * listed, f"the counterpart is covered best for only {best} of {listed} pairs"


def test_coverages_of_many_pairs_are_the_coverage_of_each_pair():
    # content_pairs compares every page of one language with every page of the other: the pairs' coverages
    # are read together (Lexicon.coverages: each body's words looked up once). On the real sites' pages,
    # either way round, each must be exactly what coverage() says of the two bodies' words.
    lexicon = Lexicon.from_dictd(*DEBIAN_LEXICON)
    texts = [parse_html(html, url).text for site in load_real_sites() for url, html in list(site.files.items())[:12]]
    words = dict(enumerate(stems(text.splitlines()) for text in texts))
    pairs = [(i, j) for i in words for j in words if (i + j) % 3]  # not every pair: each side's lists differ
    for reading in (lexicon, lexicon.reversed()):
        together = reading.coverages(words, words, pairs)
        assert set(together) == set(pairs)
        assert all(together[(i, j)] == reading.coverage(words[i], words[j]) for i, j in pairs)
    assert len(pairs) > 4_000
    covered = [lexicon.coverage(words[i], words[j])[0] for i, j in pairs]
    assert any(0 < share < 1 for share in covered if share is not None), "some pairs partly covered, so the test tells"
    assert lexicon.reversed().reversed() is lexicon, "one reversed lexicon each way: its readings' tables built once"
    assert lexicon.reversed()._translated_from[0] is lexicon._translated_from[1], "its tables shared, read the other way"
