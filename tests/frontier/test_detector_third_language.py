"""The BS Detector on a site entered from a third language: followed to its other languages before it
is judged, not decided by one link's score against the 0.8 minimum (Issue 31, item 4)."""
from __future__ import annotations

import numpy as np

from frontier.classifiers.bs_detector import SECOND_LOOK_FLOOR, detect_bilingual
from frontier.classifiers.link_features import LinkContext
from frontier.classifiers.switch_hints import switch_language

HOME = "http://www.primer.test/"


class ScoresByUrl:
    """A Link Predictor whose score of each link is set by the test (the detector's logic is under test)."""

    def __init__(self, scores: dict[str, float]):
        self.scores = scores

    def predict_proba(self, links):
        return np.array([self.scores.get(link.url, 0.05) for link in links])


def link(url: str, anchor: str = "", page: str = HOME) -> LinkContext:
    return LinkContext(url=url, anchor_text=anchor, text_around="", img_alt="", img_src="", page_url=page, hreflang="")


SITE = {  # url -> (language, links of that page)
    "http://www.primer.test/b/": ("sr", [link("http://www.primer.test/c/", "Lesen", "http://www.primer.test/b/")]),
    "http://www.primer.test/c/": ("en", [link("http://www.primer.test/b/", "Lesen", "http://www.primer.test/c/")]),
    "http://www.primer.test/geschichte.html": ("de", []),
}
SCORES = {"http://www.primer.test/b/": 0.79, "http://www.primer.test/geschichte.html": 0.1,
          "http://www.primer.test/c/": 0.79}


def run(page_language: str, links: list[LinkContext], read: list[str]):
    def fetch_language(url):
        read.append(url)
        return SITE.get(url, (None, []))[0]

    return detect_bilingual(HOME, page_language, links, ScoresByUrl(SCORES), fetch_language,
                            follow=lambda url: SITE.get(url, (None, []))[1])


def test_a_third_language_home_page_whose_language_link_scores_just_under_the_minimum_is_followed():
    read: list[str] = []
    verdict = run("de", [link("http://www.primer.test/geschichte.html", "Geschichte"),
                         link("http://www.primer.test/b/", "Lesen")], read)
    assert verdict.bilingual, verdict.evidence
    assert read == ["http://www.primer.test/b/", "http://www.primer.test/c/"], \
        "the 0.79 link first, then the Serbian page's own link to English; not the 0.1 link"
    assert verdict.evidence[0]["why"] == "second look" and verdict.languages_seen == ["de", "en", "sr"]


def test_a_page_in_a_language_of_the_pair_is_still_judged_on_the_minimum():
    read: list[str] = []
    verdict = run("sr", [link("http://www.primer.test/c/", "Lesen")], read)
    assert not verdict.bilingual and read == [], "an sr page's 0.79 link stays under the paper's minimum"


def test_the_second_look_reads_no_link_under_its_floor():
    read: list[str] = []
    low = {url: SECOND_LOOK_FLOOR - 0.01 for url in SCORES}
    verdict = detect_bilingual(HOME, "de", [link("http://www.primer.test/b/", "Lesen")], ScoresByUrl(low),
                               lambda url: read.append(url) or SITE[url][0])
    assert not verdict.bilingual and read == []


def test_the_second_look_never_leaves_the_site():
    read: list[str] = []
    verdict = detect_bilingual(HOME, "de", [link("http://elsewhere.test/b/", "Lesen")],
                               ScoresByUrl({"http://elsewhere.test/b/": 0.79}), lambda url: read.append(url) or "sr")
    assert not verdict.bilingual and read == []


def test_the_pairs_language_names_in_a_third_language_mark_a_switch():
    assert switch_language(link("http://www.primer.test/lesen/b/", "Auf Serbisch lesen")) == "sr"
    assert switch_language(link("http://www.primer.test/x/", "Английский")) == "en"
    assert switch_language(link("http://www.primer.test/x/", "Version anglaise du site web")) is None, \
        "a sentence is a link, not a switch"
