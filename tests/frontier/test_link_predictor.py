"""Link Predictor, its features and the Bilingual Site Detector (Barbosa et al. 2011, Sec. 2.1)."""
from __future__ import annotations

import json
import pickle
from pathlib import Path
from types import SimpleNamespace

import joblib
import numpy as np
import pytest

from frontier.classifiers.bs_detector import detect_bilingual
from frontier.classifiers.link_features import LinkContext, extract_link_features
from frontier.classifiers.link_predictor import LinkPredictor
from frontier.classifiers.shipped_link_predictor import (
    DEFAULT_MODEL_PATH,
    default_link_predictor,
    load_link_model,
    save_link_model,
)
from frontier.classifiers.page_links import link_contexts_from_html
from frontier.classifiers.predictor_training import score_at_thresholds, training_set
from frontier.classifiers.real_sites import DEFAULT_ROOT, page_languages, labelled_links, load_truth, site_pages
from crawlweb.model_data import ModelDataError

needs_real_sites = pytest.mark.skipif(
    not (DEFAULT_ROOT / "truth.json").is_file(), reason=f"development data {DEFAULT_ROOT} is absent"
)
PAGE = "http://site.rs/index_en.html"


def test_the_same_word_in_url_and_anchor_gives_two_separate_features():
    feats = extract_link_features(LinkContext(url="/en/about.html", anchor_text="EN", page_url="http://site.rs/sr/about.html"))
    assert "url:en" in feats and "anchor:en" in feats


def test_all_five_contexts_appear_with_their_prefix():
    link = LinkContext(
        url="/index_sr.html",
        anchor_text="Srpski",
        text_around="choose language",
        img_alt="Serbian flag",
        img_src="/img/flags/rs.png",
        page_url=PAGE,
    )
    feats = extract_link_features(link)
    for expected in ("url:sr", "anchor:srpski", "around:language", "alt:serbian", "src:flags", "src:rs"):
        assert expected in feats
    assert {f.split(":")[0] for f in feats} >= {"url", "anchor", "around", "alt", "src"}


def test_flag_image_src_is_split_into_path_words_without_generic_image_words():
    feats = extract_link_features(LinkContext(url="index.html", img_src="/img/flags/gb.png", page_url=PAGE))
    assert {"src:flags", "src:gb"} <= set(feats)
    assert "src:img" not in feats and "src:png" not in feats  # every image path has these


def test_url_that_differs_only_by_a_language_unit_is_marked_as_a_language_swap():
    swap = extract_link_features(LinkContext(url="index_sr.html", page_url=PAGE))
    folder = extract_link_features(LinkContext(url="http://site.rs/sr/a/b.html", page_url="http://site.rs/en/a/b.html"))
    other = extract_link_features(LinkContext(url="contact_en.html", page_url=PAGE))
    assert "rel:lang_swap" in swap and "rel:lang_swap" in folder
    assert "rel:lang_swap" not in other


def test_a_link_to_the_page_itself_is_marked_self():
    assert "rel:self" in extract_link_features(LinkContext(url="index_en.html#top", page_url=PAGE))


def test_malformed_urls_from_crawled_pages_do_not_stop_feature_extraction():
    link = LinkContext(url="http://[oops/x.html", anchor_text="English", img_src="http://[bad/gb.png", page_url=PAGE)
    feats = extract_link_features(link)
    assert "anchor:english" in feats and "src:gb" in feats
    verdict = detect_bilingual(PAGE, "en", [link], default_link_predictor(), {}.get, min_likelihood=0.0)
    # The malformed link is never read; the only page read is the guess of index_en.html's other side.
    assert [(page["url"], page["why"]) for page in verdict.evidence] == [("http://site.rs/index_sr.html", "guess")]
    assert verdict.pages_downloaded == 1 and verdict.bilingual is False


def test_empty_target_url_is_refused_with_a_clear_error():
    with pytest.raises(ValueError, match="non-empty target url"):
        LinkContext(url="  ")


def test_page_links_reads_anchors_flags_buttons_and_hreflang():
    html = """<html><head><link rel="alternate" hreflang="sr" href="/sr/"></head><body>
      <p>Read our story on the <a href="about.html">About</a> page today.</p>
      <ul><li><a href="index-sr.html"><img src="img/serbia.png" alt="Srpski"></a></li></ul>
      <button onclick="window.location.href = 'kontakt.html';">Srpski</button>
      <a href="mailto:x@y.rs">mail</a><a href="#">top</a></body></html>"""
    links = {l.url: l for l in link_contexts_from_html(html, "http://site.rs/index.html")}
    assert set(links) == {"/sr/", "about.html", "index-sr.html", "kontakt.html"}
    assert links["/sr/"].hreflang == "sr"
    assert links["about.html"].anchor_text == "About"
    assert "story" in links["about.html"].text_around and "today" in links["about.html"].text_around
    assert (links["index-sr.html"].img_src, links["index-sr.html"].img_alt) == ("img/serbia.png", "Srpski")
    assert links["kontakt.html"].anchor_text == "Srpski"


def _switch_and_nav():
    switch = LinkContext(url="index_sr.html", anchor_text="Srpski", img_src="/img/flags/rs.png", page_url=PAGE)
    nav = LinkContext(url="contact_en.html", anchor_text="Contact us", text_around="Home Services", page_url=PAGE)
    return switch, nav


def test_shipped_model_is_small_and_scores_a_switch_link_above_a_navigation_link():
    assert DEFAULT_MODEL_PATH.stat().st_size < 2_000_000
    switch, nav = _switch_and_nav()
    p_switch, p_nav = default_link_predictor().predict_proba([switch, nav])
    assert p_switch >= 0.8 > 0.5 > p_nav


def test_training_needs_both_labels_and_matching_lengths():
    switch, nav = _switch_and_nav()
    with pytest.raises(ValueError, match="both labels"):
        LinkPredictor.train([switch, nav], [1, 1])
    with pytest.raises(ValueError, match="2 links but 1 labels"):
        LinkPredictor.train([switch, nav], [1])


HELD_OUT = {"www.sft21.com", "mipap.mipap.gh.test"}


@pytest.fixture(scope="module")
def real():
    if not (DEFAULT_ROOT / "truth.json").is_file():
        pytest.skip(f"development data {DEFAULT_ROOT} is absent")
    return labelled_links(DEFAULT_ROOT)


@pytest.fixture(scope="module")
def held_out(real):
    """A model trained without two real sites, and the labelled links of those two sites."""
    pages = [u for s in load_truth(DEFAULT_ROOT) if s["host"] not in HELD_OUT for u, _ in site_pages(DEFAULT_ROOT, s["host"])]
    training = training_set([r for r in real if r.site not in HELD_OUT], pages, seed=0)
    model = LinkPredictor.train(*training, seed=0)
    test = [r for r in real if r.site in HELD_OUT]
    links = [r.link for r in test]
    return SimpleNamespace(
        model=model, training=training, links=links, labels=np.array([r.label for r in test]), probs=model.predict_proba(links)
    )


@needs_real_sites
def test_probabilities_on_held_out_real_sites_lie_in_unit_interval_and_beat_chance(held_out):
    labels, probs = held_out.labels, held_out.probs
    assert probs.min() >= 0.0 and probs.max() <= 1.0
    base_rate = labels.mean()
    at_half = {s.min_likelihood: s for s in score_at_thresholds(probs, labels)}[0.5]
    assert at_half.precision > 5 * base_rate  # far better than picking links at random
    assert at_half.recall > 0.5
    # ranking: a random translation link outscores a random other link most of the time
    pos, neg = probs[labels == 1], probs[labels == 0]
    assert (pos[:, None] > neg[None, :]).mean() > 0.85


@needs_real_sites
def test_higher_probability_means_more_translation_links_on_held_out_sites(held_out):
    labels, probs = held_out.labels, held_out.probs
    low, mid, high = probs < 0.2, (probs >= 0.2) & (probs < 0.8), probs >= 0.8
    rates = [labels[m].mean() for m in (low, mid, high)]
    assert all(m.any() for m in (low, mid, high))
    assert rates[0] < rates[1] < rates[2]


@needs_real_sites
def test_training_is_deterministic_for_a_seed(held_out):
    again = LinkPredictor.train(*held_out.training, seed=0)
    assert np.array_equal(again.predict_proba(held_out.links), held_out.probs)


@needs_real_sites
def test_detector_finds_held_out_real_bilingual_sites_with_few_downloads(held_out):
    for site in load_truth(DEFAULT_ROOT):
        if site["host"] not in HELD_OUT:
            continue
        languages = page_languages(site)  # truth as the language identifier: tests the link step
        verdicts = []
        for url, path in site_pages(DEFAULT_ROOT, site["host"]):
            if url in languages:
                links = link_contexts_from_html(path.read_text(encoding="utf-8"), url)
                verdicts.append(detect_bilingual(url, languages[url], links, held_out.model, languages.get))
        assert any(v.bilingual for v in verdicts), site["host"]
        assert max(v.pages_downloaded for v in verdicts) <= 5


@needs_real_sites
def test_shipped_model_is_what_the_training_script_builds(real):
    pages = [u for s in load_truth(DEFAULT_ROOT) for u, _ in site_pages(DEFAULT_ROOT, s["host"])]
    rebuilt = LinkPredictor.train(*training_set(real, pages, seed=0), seed=0)
    links = [r.link for r in real[:300]]
    # To 1e-4: numpy and scipy releases move the calibration's optimizer by a few 1e-5 (3.5e-5 at
    # most with numpy 2.4.6 / scipy 1.17.1); another training set or recipe moves it by far more.
    assert np.allclose(rebuilt.predict_proba(links), default_link_predictor().predict_proba(links), rtol=0, atol=1e-4)


def test_save_and_load_keep_predictions(tmp_path: Path):
    switch, nav = _switch_and_nav()
    model = default_link_predictor()
    save_link_model(model, tmp_path / "m.json")
    again = load_link_model(tmp_path / "m.json")
    assert np.array_equal(again.predict_proba([switch, nav]), model.predict_proba([switch, nav]))


def test_the_shipped_model_is_json_data_not_a_pickle():
    assert DEFAULT_MODEL_PATH.suffix == ".json"
    assert json.loads(DEFAULT_MODEL_PATH.read_text(encoding="utf-8"))["format"] == "link-predictor-data"
    assert not DEFAULT_MODEL_PATH.with_suffix(".joblib").exists()


def test_a_model_file_of_another_version_is_refused(tmp_path: Path):
    data = json.loads(DEFAULT_MODEL_PATH.read_text(encoding="utf-8"))
    data["version"] = 99
    (tmp_path / "old.json").write_text(json.dumps(data))
    with pytest.raises(ModelDataError, match="version 99"):
        load_link_model(tmp_path / "old.json")


def test_a_pickled_or_joblib_model_file_is_refused_without_being_run(tmp_path: Path):
    ran = tmp_path / "ran"
    joblib.dump({"payload": _Trap(str(ran))}, tmp_path / "m.joblib")
    with pytest.raises(ModelDataError, match="binary, not JSON text|not JSON data"):
        load_link_model(tmp_path / "m.joblib")
    (tmp_path / "m.pickle").write_bytes(pickle.dumps(_Trap(str(ran))))
    with pytest.raises(ModelDataError, match="binary, not JSON text|not JSON data"):
        load_link_model(tmp_path / "m.pickle")
    assert not ran.exists()


def test_a_foreign_or_missing_model_file_is_refused(tmp_path: Path):
    (tmp_path / "x.json").write_text('{"format": "something else"}')
    with pytest.raises(ModelDataError, match="format 'something else'"):
        load_link_model(tmp_path / "x.json")
    with pytest.raises(ModelDataError, match="no Link Predictor model"):
        load_link_model(tmp_path / "missing.json")


class _Trap:
    """Unpickling it would create a file: the proof that loading ran code."""

    def __init__(self, path: str):
        self.path = path

    def __reduce__(self):
        return (Path.touch, (Path(self.path),))


# --- Bilingual Site Detector -------------------------------------------------------------

SITE = "http://hotel.rs/"


def _site_links():
    page = SITE + "en/index.html"
    return page, [
        LinkContext(url="/sr/index.html", anchor_text="Srpski", img_src="/img/rs.png", page_url=page),
        LinkContext(url="/en/rooms.html", anchor_text="Rooms", text_around="Our rooms and prices", page_url=page),
        LinkContext(url="/en/contact.html", anchor_text="Contact", page_url=page),
        LinkContext(url="/en/gallery.html", anchor_text="Gallery", page_url=page),
    ]


class LanguageTable:
    """Test double of the network: a dict lookup that counts the pages it was asked for."""

    def __init__(self, table):
        self.table, self.asked = table, []

    def __call__(self, url):
        self.asked.append(url)
        return self.table.get(url)


def test_detector_finds_a_bilingual_site_from_the_switch_link_with_one_download():
    page, links = _site_links()
    lookup = LanguageTable({SITE + "sr/index.html": "sr-Latn", SITE + "en/rooms.html": "en"})
    verdict = detect_bilingual(page, "en", links, default_link_predictor(), lookup)
    assert verdict.bilingual is True
    assert verdict.pages_downloaded == 1 == len(lookup.asked)
    assert verdict.evidence[0]["url"] == SITE + "sr/index.html"
    assert verdict.evidence[0]["language"] == "sr-Latn" and verdict.evidence[0]["score"] >= 0.8
    assert verdict.languages_seen == ["en", "sr"]


def test_detector_says_not_bilingual_when_the_other_page_is_in_a_third_language():
    page, links = _site_links()
    lookup = LanguageTable({SITE + "sr/index.html": "hr"})
    verdict = detect_bilingual(page, "en", links, default_link_predictor(), lookup)
    assert verdict.bilingual is False
    assert verdict.languages_seen == ["en", "hr"]


def test_detector_with_min_likelihood_zero_checks_all_links_up_to_the_fetch_budget():
    page, links = _site_links()
    lookup = LanguageTable({})  # nothing identifiable
    verdict = detect_bilingual(page, "en", links, default_link_predictor(), lookup, min_likelihood=0.0, max_fetches=3)
    assert verdict.candidates == 4 and verdict.pages_downloaded == 3 and verdict.bilingual is False
    scores = [e["score"] for e in verdict.evidence]
    assert scores == sorted(scores, reverse=True)  # best first


def test_detector_uses_both_fetched_pages_when_the_input_page_language_is_unknown():
    # a language-neutral entry page offering both versions
    links = [
        LinkContext(url="/en/index.html", anchor_text="English", img_src="/img/gb.png", page_url=SITE),
        LinkContext(url="/sr/index.html", anchor_text="Српски", img_src="/img/rs.png", page_url=SITE),
        LinkContext(url="/impressum.html", anchor_text="Impressum", page_url=SITE),
    ]
    lookup = LanguageTable({SITE + "sr/index.html": "sr-Cyrl", SITE + "en/index.html": "en"})
    verdict = detect_bilingual(SITE, None, links, default_link_predictor(), lookup)
    assert verdict.bilingual is True and verdict.pages_downloaded == 2
    assert sorted(lookup.asked) == [SITE + "en/index.html", SITE + "sr/index.html"]


def test_detector_rejects_a_bad_pair_or_threshold():
    page, links = _site_links()
    with pytest.raises(ValueError, match="two different languages"):
        detect_bilingual(page, "en", links, default_link_predictor(), dict().get, pair=("sr", "sr"))
    with pytest.raises(ValueError, match="min_likelihood"):
        detect_bilingual(page, "en", links, default_link_predictor(), dict().get, min_likelihood=1.5)


def test_training_script_names_a_missing_data_folder(tmp_path: Path):
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[2] / "scripts" / "train_link_predictor.py"
    result = subprocess.run(
        [sys.executable, str(script), "--data", str(tmp_path / "nowhere"), "--no-save"], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "has no truth.json" in result.stderr
