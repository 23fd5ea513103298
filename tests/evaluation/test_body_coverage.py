"""Content check "body of its own": a dictionary reads whether two bodies under one frame say the same."""
import pytest

from crawlweb.crawler.htmlparse import parse_html
from evaluation.pairing import body_coverage
from evaluation.pairing.body_coverage import body_coverage_reason
from evaluation.pairing.records import CandidatePair, PageRecord
from evaluation.pairing.similarity import filter_pair, filter_pairs
from evaluation.bodies.lexicon import Lexicon

from ..dictd import DEBIAN_LEXICON, VILLAGE_WORDS, two_way_lexicon
from .realsites import REAL_SITES, load_real_sites

FRAME = {"sr": "Početna\nO nama\nKontakt", "en": "Home\nAbout us\nContact"}
SERBIAN = "Kuća pored jezera, planina i šuma, livada i dvorac, crkva, most, ulica i pijaca."
TRANSLATED = "A house by the lake, a mountain and a forest, a meadow by the castle, a church, a bridge, a street and a market."
OF_ITS_OWN = "Our market opens early: fresh bread, cheese, honey and coffee every morning until noon."


@pytest.fixture
def lexicon(tmp_path) -> Lexicon:
    return two_way_lexicon(tmp_path, VILLAGE_WORDS)


def page(lang: str, body: str) -> str:
    return f"{FRAME[lang]}\n{body}\nBeograd 2024"


def test_a_body_of_its_own_under_a_translated_frame_is_named(lexicon):
    reason, figures = body_coverage_reason(page("sr", SERBIAN), page("en", OF_ITS_OWN), None, lexicon, min_known=1)
    assert reason.startswith("bodies of their own: the dictionary finds ")
    assert figures["body_coverage"] < 0.45
    assert body_coverage_reason(page("sr", SERBIAN), page("en", TRANSLATED), None, lexicon, min_known=5) == (
        None, {"body_coverage": 1.0, "body_known_words": 10, "aligned_share": 1.0, "aligned_known_words": 10})
    assert "alignment_score" in figures, "a removal says how far the sentences align"


# The same ten words in other sentences: a text of its own on the topic, covered well as a bag of words.
SERBIAN_LINES = "Kuća pored jezera i planina.\nŠuma, livada i dvorac.\nCrkva, most, ulica i pijaca."
TRANSLATED_LINES = ("A house by the lake and the mountain.\nA forest, a meadow and a castle.\n"
                    "A church, a bridge, a street and a market.")
SAME_TOPIC = ("A castle by the market, and a house.\nA church near the lake, a bridge and a forest.\n"
              "A mountain street by the meadow.")


def test_a_body_of_its_own_on_the_same_topic_is_named_by_its_lines(lexicon):
    # min_alignment 0: these three-line bodies under an untranslated frame are read by the line alignment
    # alone (their frame's "Kontakt"/"Contact" anchors a sentence alignment of six short lines)
    reason, figures = body_coverage_reason(page("sr", SERBIAN_LINES), page("en", SAME_TOPIC), None, lexicon,
                                           min_known=5, min_aligned=0.5, min_alignment=0)
    assert figures["body_coverage"] == 1.0, "as a bag of words the body is all translated"
    assert figures["aligned_share"] < 0.5
    assert reason.startswith("bodies of their own: ") and "align line by line" in reason
    assert body_coverage_reason(page("sr", SERBIAN_LINES), page("en", TRANSLATED_LINES), None, lexicon,
                                min_known=5, min_aligned=0.5, min_alignment=0)[0] is None
    assert body_coverage_reason(page("sr", SERBIAN_LINES), page("en", SAME_TOPIC), None, lexicon,
                                min_known=5, min_aligned=0, min_alignment=0)[0] is None, "0: off"


def test_too_little_body_is_not_judged(lexicon):
    assert body_coverage_reason(page("sr", SERBIAN), page("en", OF_ITS_OWN), None, lexicon) == (None, {})


def test_the_filter_removes_it_only_with_a_dictionary_of_the_pairs_languages(lexicon, monkeypatch):
    monkeypatch.setattr(body_coverage, "MIN_KNOWN", 1)  # the test's bodies are one sentence
    source = PageRecord("http://x.rs/sr/selo.html", "sr", text=page("sr", SERBIAN), text_length=90)
    target = PageRecord("http://x.rs/en/village.html", "en", text=page("en", OF_ITS_OWN), text_length=95)
    sr_en = ("sr", "en")
    assert filter_pair(source, target, {}, languages=sr_en).keep, "without a dictionary there is no body check"
    removed = filter_pair(source, target, {}, languages=sr_en, lexicon=lexicon)
    assert not removed.keep and removed.reason.startswith("bodies of their own")
    english_first = filter_pair(target, source, {}, languages=("en", "sr"), lexicon=lexicon)
    assert not english_first.keep and english_first.reason.startswith("bodies of their own")
    assert filter_pair(source, target, {}, languages=sr_en, lexicon=lexicon, min_body_coverage=0,
                       min_aligned_share=0).keep, "0: off"
    croatian = PageRecord(source.url, "hr", text=source.text, text_length=90)
    assert filter_pair(croatian, target, {}, languages=("hr", "en"), lexicon=lexicon).keep
    translated = PageRecord(target.url, "en", text=page("en", TRANSLATED), text_length=120)
    assert filter_pair(source, translated, {}, languages=sr_en, lexicon=lexicon).keep


def test_an_adapted_translation_the_two_readings_remove_is_kept_by_its_sentences(tmp_path):
    """The restaurant page adapted per language (tests/training/test_sentence_alignment.py): its lines do
    not align one to one, so the line reading removes it; its sentences do, so it is kept. The same
    restaurant's catering page stays removed, its reason saying how little its sentences align."""
    from ..training.test_sentence_alignment import ADAPTED, OF_ITS_OWN, REORDERED, SERBIAN, WORDS

    words = two_way_lexicon(tmp_path, WORDS)
    serbian = "\n".join(["Početna", *SERBIAN])
    for english in (ADAPTED, REORDERED):
        text = "\n".join(["Home", *english])
        assert body_coverage_reason(serbian, text, None, words, min_known=5, min_aligned=0.9,
                                    min_alignment=0)[0].startswith("bodies of their own")
        reason, figures = body_coverage_reason(serbian, text, None, words, min_known=5, min_aligned=0.9)
        assert reason is None and figures["adapted_translation"] and figures["alignment_score"] >= 0.67
    reason, figures = body_coverage_reason(serbian, "\n".join(["Home", *OF_ITS_OWN]), None, words, min_known=5)
    assert reason.startswith("bodies of their own") and "sentences align" in reason
    assert figures["alignment_score"] < 0.67 and "adapted_translation" not in figures


@pytest.mark.skipif(not REAL_SITES.is_dir(), reason=f"real-site data not found at {REAL_SITES}")
def test_on_the_real_sites_no_translated_pair_is_taken_for_a_body_of_its_own():
    lexicon = Lexicon.from_dictd(*DEBIAN_LEXICON)
    removed, judged = [], 0
    for site in load_real_sites():
        languages = site.truth_languages()
        pages = {url: PageRecord(url, languages[url], text=(text := parse_html(html, url).text),
                                 text_length=len(text))
                 for url, html in site.files.items() if url in languages}
        candidates = [CandidatePair(sr, en, "switch", None, 1.0) for sr, en in site.truth_pairs]
        for cand, verdict in filter_pairs(candidates, pages, {}, languages=("sr", "en"), lexicon=lexicon):
            judged += "body_coverage" in verdict.scores
            if verdict.reason.startswith("bodies of their own"):
                removed.append(cand.key)
    assert judged >= 30, "the check read too few of the real pairs to say anything"
    assert removed == []
