"""What the thin-page rule reads in two bodies: a translated sentence, translated words; untranslated lines
(names, prices carried verbatim) and labels are not translated content."""
import math

from training.learn.features import FEATURE_NAMES, pair_features
from training.learn.translated_content import translated_content_features

LISTING_SR = ["Skulpture", "Sortiraj: Pretraga:"]  # a heading and sort labels: boilerplate by the rule
LISTING_EN = ["Sculptures", "Sort: Search:"]
NEWS_SR = ["Uskoro kod nas", "Pripremamo nekoliko novih jela koja možete poručiti telefonom ili preuzeti u restoranu."]
NEWS_EN = ["Coming soon", "We are preparing a few new dishes that you can order by phone or pick up at the restaurant."]


def test_a_heading_and_labels_have_no_translated_sentence():
    found = translated_content_features(LISTING_SR, LISTING_EN)
    assert found["translated_sentence"] == 0.0 and found["translated_sentences_log"] == 0.0
    assert found["translated_words_log"] == math.log1p(3)  # "Sort", "Search" and "Sculptures" on the English side


def test_a_translated_paragraph_is_a_translated_sentence():
    found = translated_content_features(NEWS_SR, NEWS_EN)
    assert found["translated_sentence"] == 1.0 and found["translated_sentences_log"] == math.log1p(1)
    assert found["translated_words_log"] > math.log1p(10)


def test_a_sentence_the_other_body_carries_verbatim_is_not_translated():
    untranslated = "Pripremamo nekoliko novih jela koja možete poručiti telefonom."
    found = translated_content_features(["Vesti", untranslated], ["News", untranslated])
    assert found["translated_sentence"] == 0.0


def test_the_fewer_side_counts_a_sentence_on_one_side_only_is_not_one_translated():
    found = translated_content_features(NEWS_SR, ["Coming soon"])
    assert found["translated_sentence"] == 0.0 and found["translated_words_log"] == math.log1p(2)


def test_the_pair_features_read_them_beyond_the_template():
    menu_sr, menu_en = "Početna\nGalerija\nKontakt", "Home\nGallery\nContact"
    pair = {"source_text": menu_sr + "\n" + "\n".join(NEWS_SR), "target_text": menu_en + "\n" + "\n".join(NEWS_EN),
            "scores": {}}
    named = dict(zip(FEATURE_NAMES, pair_features(pair)))
    assert named["translated_sentence"] == 1.0
    empty = dict(zip(FEATURE_NAMES, pair_features({"source_text": menu_sr, "target_text": menu_en, "scores": {}})))
    assert empty["translated_sentence"] == 0.0  # the menus alone: three one-word lines on each side
