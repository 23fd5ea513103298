"""Method "switch": a page paired with the page its language switch points to."""
import pytest

from crawlweb.crawler.htmlparse import parse_html
from evaluation.pairing.methods import combine_candidates
from evaluation.pairing.records import CandidatePair
from evaluation.pairing.switch import SwitchLink, switch_pairs, switch_signals

# Navigation of two pages of a urologist's site (shared/data/real-sites,
# AleksandarJanjic/prof-dr-miodrag-acimovic: intervencije.html and interventions.html), copied small:
# the switch is a <button onclick>, and the two sides have translated slugs.
SERBIAN_NAV = """<html lang="en"><body><div class="nav">
<button class="nav-button-actual" onclick="window.location.href = 'operacije.html';"> OPERACIJE </button>
<button class="nav-button-actual" onclick="window.location.href = 'intervencije.html';"> INTERVENCIJE </button>
<button class="nav-button-actual" onclick="window.location.href = 'kontakt.html';"> KONTAKT </button>
<button class="nav-button-actual" onclick="window.location.href = 'interventions.html';"> ENGLISH </button>
</div></body></html>"""
ENGLISH_NAV = """<html lang="en"><body><div class="nav">
<button class="nav-button-actual" onclick="window.location.href = 'surgeries.html';"> SURGERIES </button>
<button class="nav-button-actual" onclick="window.location.href = 'interventions.html';"> INTERVENTIONS </button>
<button class="nav-button-actual" onclick="window.location.href = 'contact.html';"> CONTACT </button>
<button class="nav-button-actual" onclick="window.location.href = 'intervencije.html';"> SRPSKI </button>
</div></body></html>"""
SITE = "http://urolog.test/"
LANGS = {SITE + "intervencije.html": "sr-Latn", SITE + "interventions.html": "en", SITE + "operacije.html": "sr-Latn",
         SITE + "surgeries.html": "en", SITE + "kontakt.html": "sr-Latn", SITE + "contact.html": "en"}


def _switch_links(url, html):
    """The parser's links of a page as the pairing input sees them (evaluation/services/inputs.py)."""
    return [SwitchLink(url, link.url, link.anchor_text, link.img_src, link.img_alt, link.title,
                       LANGS.get(link.url, ""), hreflang=link.hreflang, kind=link.kind)
            for link in parse_html(html, url).links if link.url in LANGS]


def test_a_switch_button_pairs_translated_slugs_that_no_url_pattern_can_match():
    links = _switch_links(SITE + "intervencije.html", SERBIAN_NAV) + _switch_links(SITE + "interventions.html",
                                                                                   ENGLISH_NAV)
    pairs = switch_pairs(LANGS, links, languages=("sr", "en"))
    assert [(p.source_url, p.target_url, p.method) for p in pairs] == [
        (SITE + "intervencije.html", SITE + "interventions.html", "switch")]
    pair = pairs[0]
    assert pair.score == 1.0, "both sides switch to each other"
    assert "anchor 'ENGLISH'" in pair.evidence and "(onclick)" in pair.evidence
    assert "back: anchor 'SRPSKI'" in pair.evidence
    assert "OPERACIJE" not in pair.evidence, "menu links are not switches"


def test_switch_signals_read_anchor_title_flag_image_and_hreflang():
    to_en = [SwitchLink("a", "b", anchor_text="EN"), SwitchLink("a", "b", anchor_text="ENG"),
             SwitchLink("a", "b", title="English version"), SwitchLink("a", "b", img_src="/img/flags/gb.png"),
             SwitchLink("a", "b", img_alt="english flag"), SwitchLink("a", "b", hreflang="en-GB")]
    to_sr = [SwitchLink("a", "b", anchor_text="SRB"), SwitchLink("a", "b", anchor_text="Srpski"),
             SwitchLink("a", "b", anchor_text="Српски"), SwitchLink("a", "b", anchor_text="lat"),
             SwitchLink("a", "b", anchor_text="ћир"), SwitchLink("a", "b", img_src="serbia.png")]
    assert all(switch_signals(link, "en") for link in to_en)
    assert all(switch_signals(link, "sr") for link in to_sr)
    assert switch_signals(SwitchLink("a", "b", hreflang="en"), "en") == ["hreflang=en"]
    assert switch_signals(SwitchLink("a", "b", img_src="/flags/gb.png?v=2"), "en") == ["image gb.png"]
    for menu in ("About us", "Kontakt", "Home"):
        assert not switch_signals(SwitchLink("a", "b", anchor_text=menu), "en")
        assert not switch_signals(SwitchLink("a", "b", anchor_text=menu), "sr")


def test_a_switch_with_an_unknown_language_is_an_error_that_names_it():
    with pytest.raises(ValueError, match="'xx'"):
        switch_signals(SwitchLink("a", "b", anchor_text="EN"), "xx")


def test_switches_to_a_page_in_the_same_language_or_an_unconfirmed_one_pair_nothing():
    links = [SwitchLink(SITE + "kontakt.html", SITE + "operacije.html", anchor_text="SRB"),  # both Serbian
             SwitchLink(SITE + "kontakt.html", SITE + "nowhere.html", anchor_text="English")]  # never fetched
    assert switch_pairs(LANGS, links, languages=("sr", "en")) == []


def test_a_switch_pair_outranks_a_pattern_pair_for_the_same_page():
    switch = switch_pairs(LANGS, [SwitchLink(SITE + "kontakt.html", SITE + "contact.html", anchor_text="EN")],
                          languages=("sr", "en"))
    pattern = [CandidatePair(SITE + "kontakt.html", SITE + "surgeries.html", "local", ("kontakt", "surgeries"), 0.2)]
    kept = combine_candidates(pattern, switch)
    assert [(c.target_url, c.method) for c in kept] == [(SITE + "contact.html", "switch")]
