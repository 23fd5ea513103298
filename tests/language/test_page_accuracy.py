"""lid_acc and lid_sr_vs_hbs, the page-language figures the real-web bench prints."""
import pytest

from crawlweb.language.page_accuracy import evaluation_label, page_language_scores


def test_accuracy_and_the_serbian_split_are_counted_over_the_right_pages():
    truth = {"a": "sr-Latn", "b": "sr-Cyrl", "c": "hr", "d": "bs", "e": "en", "f": "none", "g": "mixed",
             "h": "cnr"}
    predicted = {"a": "sr-Latn", "b": "sr-Latn", "c": "bs", "d": "sr-Latn", "e": "en", "f": "und", "g": "sr-Latn"}
    scores = page_language_scores(predicted, truth)
    # scored: a..f (g is mixed, h never stored); right: a, e, f
    assert scores["pages"] == 6 and scores["lid_acc"] == pytest.approx(3 / 6, abs=1e-4)
    # split over a, b, c, d: a and b are Serbian (script aside), c is not Serbian, d was called Serbian
    assert scores["bcms_pages"] == 4 and scores["lid_sr_vs_hbs"] == pytest.approx(3 / 4)
    assert scores["confusion"]["sr-Cyrl"] == {"sr-Latn": 1}


def test_a_truth_without_a_script_accepts_either():
    assert page_language_scores({"a": "sr-Cyrl"}, {"a": "sr"})["lid_acc"] == 1.0


def test_nothing_to_score_gives_zero_not_an_error():
    assert page_language_scores({}, {"a": "hr"}) == {"lid_acc": 0.0, "lid_sr_vs_hbs": 0.0, "pages": 0,
                                                     "bcms_pages": 0, "confusion": {}}


def test_bad_input_is_refused():
    with pytest.raises(TypeError):
        page_language_scores([("a", "sr")], {"a": "sr"})


def test_stored_languages_become_evaluation_labels():
    assert evaluation_label("sr", "Cyrl") == "sr-Cyrl"
    assert evaluation_label("hr", "Latn") == "hr"
    assert evaluation_label("", "") == "und"
