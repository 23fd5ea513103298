"""A site's variety from all its pages, and the page labels it corrects (real snippets)."""
import json

import pytest

from crawlweb.language.site_variety import site_variety
from tests.language.snippets import (
    CROATIAN,
    CROATIAN_SHORT,
    EKAVIAN_SERBIAN,
    ENGLISH,
    IJEKAVIAN_SERBIAN,
    IJEKAVIAN_SERBIAN_CYRILLIC,
    MACEDONIAN,
    MONTENEGRIN,
    SERBIAN_MENU_PAGE,
    prepared,
)


def _site(host, pages):
    """{url: observation} of pages given as (path, text, html lang)."""
    return {f"http://{host}{path}": prepared(f"http://{host}{path}", text, lang)[2] for path, text, lang in pages}


def _labels(decision):
    return {url.split("/", 3)[3]: (lang if lang != "sr" else f"sr-{script}")
            for url, (lang, script) in decision.page_languages.items()}


def test_a_croatian_site_with_an_english_side_has_no_serbian_page():
    host = "slavonian-trading.example.com"
    decision = site_variety(host, _site(host, [
        ("/index.html", CROATIAN, "hr"), ("/kontakt.html", CROATIAN_SHORT, "hr"),
        ("/en/index.html", ENGLISH, "en"), ("/en/contact.html", ENGLISH, "en")]))
    assert decision.variety == "hr"
    labels = _labels(decision)
    assert not any(label.startswith("sr") for label in labels.values()), labels
    assert labels["index.html"] == "hr"


def test_a_serbian_sites_ijekavian_page_called_bosnian_is_corrected():
    host = "teatar.example.com"
    observations = _site(host, [
        ("/index.html", EKAVIAN_SERBIAN, None), ("/o-nama.html", EKAVIAN_SERBIAN + " Pozorište.", None),
        ("/profil.html", SERBIAN_MENU_PAGE, "en"), ("/medijacija.html", IJEKAVIAN_SERBIAN, None)])
    assert observations[f"http://{host}/medijacija.html"]["lang"] in ("hr", "bs", "cnr")
    decision = site_variety(host, observations)
    assert decision.variety == "sr"
    assert _labels(decision)["medijacija.html"] == "sr-Latn"
    assert f"http://{host}/medijacija.html" in decision.corrected


def test_latin_and_cyrillic_ijekavian_under_lang_bs_is_a_serbian_site():
    host = "tamarakrunic.example.com"  # every page declares lang="bs" (a template)
    decision = site_variety(host, _site(host, [
        ("/index_latin.html", IJEKAVIAN_SERBIAN, "bs"), ("/index_cir.html", IJEKAVIAN_SERBIAN_CYRILLIC, "bs"),
        ("/o_meni_latin.html", IJEKAVIAN_SERBIAN, "bs"), ("/o_meni_cir.html", IJEKAVIAN_SERBIAN_CYRILLIC, "bs")]))
    assert decision.variety == "sr"
    assert set(_labels(decision).values()) == {"sr-Latn", "sr-Cyrl"}


def test_a_macedonian_site_with_an_english_side_is_not_serbian():
    host = "national-parks.example.com"
    decision = site_variety(host, _site(host, [
        ("/mk/za-nas.html", MACEDONIAN, "mk"), ("/mk/prestoj.html", MACEDONIAN, None), ("/en/about.html", ENGLISH, "en")]))
    assert decision.variety == "mk"
    assert not any(label.startswith("sr") for label in _labels(decision).values())


def test_a_montenegrin_site_that_declares_sr_is_montenegrin():
    host = "gontech.me"
    decision = site_variety(host, _site(host, [("/index-sr.html", MONTENEGRIN, "sr"), ("/index.html", ENGLISH, "en")]))
    assert decision.variety == "cnr"
    assert _labels(decision)["index-sr.html"] == "cnr"


def test_pages_a_site_declares_serbian_page_by_page_stay_serbian_on_a_croatian_site():
    # SFT21: x.html lang=hr and x_sr.html lang=sr with much the same (Croatian) wording
    host = "sft.example.com"
    decision = site_variety(host, _site(host, [
        ("/odluka.html", CROATIAN, "hr"), ("/odluka_sr.html", CROATIAN, "sr"), ("/index.html", CROATIAN, "hr")]))
    assert decision.variety == "hr"
    assert _labels(decision) == {"odluka.html": "hr", "odluka_sr.html": "sr-Latn", "index.html": "hr"}


def test_a_site_without_south_slavic_pages_has_no_variety_and_keeps_its_labels():
    host = "english.example.com"
    observations = _site(host, [("/a.html", ENGLISH, "en")])
    decision = site_variety(host, observations)
    assert decision.variety is None and decision.corrected == {}
    assert _labels(decision) == {"a.html": "en"}


def test_the_decision_is_the_same_when_run_twice_and_serializable():
    host = "teatar.example.com"
    observations = _site(host, [("/a.html", EKAVIAN_SERBIAN, None), ("/b.html", IJEKAVIAN_SERBIAN, None)])
    first, second = site_variety(host, observations), site_variety(host, observations)
    assert first.page_languages == second.page_languages and first.scores == second.scores
    assert json.loads(json.dumps(first.as_evidence()))["variety"] == "sr"
    assert json.loads(json.dumps(observations))  # what Page.language_evidence stores


@pytest.mark.parametrize("observations, error", [
    ([{"lang": "sr"}], TypeError),
    ({"http://x/": {"script": "Latn"}}, ValueError),
    ({"http://x/": "sr"}, ValueError),
])
def test_bad_observations_are_refused_with_a_clear_error(observations, error):
    with pytest.raises(error):
        site_variety("x.example.com", observations)


def test_a_slovene_page_the_text_could_not_place_keeps_its_own_marker():
    # KMSSencur (Slovenia): /sl/ product pages of a site with Croatian and English sides
    host = "kms.example.com"
    observations = _site(host, [("/hr/index.html", CROATIAN, "hr"), ("/hr/kontakt.html", CROATIAN_SHORT, "hr")])
    observations[f"http://{host}/sl/category.html"] = {
        "lang": "sr", "script": "Latn", "markers": {"sr": 1.0, "hr": 0.0, "bs": 0.0, "cnr": 0.0},
        "ijek": {"sr": 0.0, "other": 0.0}, "declared": {"url": "sl", "html_lang": "en"}}
    decision = site_variety(host, observations)
    assert decision.variety == "hr"
    assert _labels(decision)["sl/category.html"] == "sl"


# A metalwork shop near Banja Luka (real development web): Serbian by its own switch ("SRB"), ijekavian,
# with a western word (vanjska) and a +387 number; and a Bosnian memorial site about Prijedor.
REPUBLIKA_SRPSKA_SHOP = (
    "Bravarija Gajanin je porodična firma koja nudi razne vrste usluga u oblasti obrade metala.\n"
    "Bavimo se izradom i montažom predmeta od INOX-a, crne bravarije i ogradnih sistema.\n"
    "Iz ponude naših usluga izdvajamo: INOX ograde, kovane ograde, nadstrešnice, željezne konstrukcije, "
    "unutrašnja i vanjska stepeništa, rukohvate.\nKontaktirajte nas: +387 66 025 335, Trn, Laktaši")
BOSNIAN = (
    "Historija grada je duga, a sahat-kula na čaršiji i danas pokazuje vrijeme. Uz kahvu i lokum, "
    "stariji pričaju kako je nekad bilo lahko živjeti u mahali. Sedmica sjećanja počinje u ponedjeljak.\n"
    "Kontakt: +387 52 123 456")


def test_bosnian_by_a_point_or_two_over_ijekavian_serbian_is_a_tie_and_serbian_wins_it():
    host = "bravarija.example.com"
    decision = site_variety(host, _site(host, [
        ("/index.html", REPUBLIKA_SRPSKA_SHOP, None), ("/first.html", ENGLISH, None)]))
    assert decision.variety == "sr", decision.scores
    assert decision.scores["bs"] > decision.scores["sr"] and decision.evidence["bosnian_tie"]
    assert _labels(decision)["index.html"] == "sr-Latn"


def test_a_bosnian_site_with_words_of_its_own_stays_bosnian():
    host = "sjecanje.example.ba"
    decision = site_variety(host, _site(host, [("/index.html", BOSNIAN, "bs"), ("/historija.html", BOSNIAN, "bs")]))
    assert decision.variety == "bs", decision.scores
    assert not decision.evidence["bosnian_tie"]
    assert set(_labels(decision).values()) == {"bs"}


def test_a_serbian_sites_page_keeps_bosnian_only_beyond_the_tie_and_the_keep_margin():
    def page(lang, sr, bs):
        return {"lang": lang, "script": "Latn", "markers": {"sr": sr, "hr": 0.0, "bs": bs, "cnr": 0.0},
                "ijek": {"sr": 0.0, "other": 0.0}, "declared": {}}
    observations = {"/": page("sr", 9.0, 2.0), "/o-nama.html": page("sr", 8.0, 1.0),
                    "/usluge.html": page("bs", 1.0, 5.5),  # a lead of 4.5: the union of sr and hr forms
                    "/historija.html": page("bs", 1.0, 8.5)}  # 7.5: beyond the tie and the margin
    decision = site_variety("portfolio.example.com", observations)
    assert decision.variety == "sr"
    assert decision.page_languages["/usluge.html"] == ("sr", "Latn")
    assert decision.page_languages["/historija.html"] == ("bs", "Latn")


# A Kotor boat-tour firm's "CG" page, written for these tests: the country's label over ekavian Serbian
# (prelepom, posetu), and the same page in ijekavian (prelijepom, posjetu), which Montenegrin is written in.
BOAT_TOUR = ("Krstarenje Bokokotorskim zalivom. Šta nudimo? Uživajte u {prelepom} pogledu na planine i stari grad "
             "sa palube našeg broda. Polazimo svakog dana u 10 časova iz luke u Kotoru. Dobićete ručak i piće, "
             "a organizovali smo i {posetu} Perastu. Pozovite nas: +382 67 123 456.")


def test_an_ekavian_page_a_montenegrin_site_labels_cg_is_serbian():
    # Ekavian is standard only in Serbian: the "cg" in the address names the country, not the standard
    host = "boka-tours.example.com"
    ekavian = BOAT_TOUR.format(prelepom="prelepom", posetu="posetu")
    language, script, observation = prepared(f"http://{host}/index_cg.html", ekavian)
    assert (language, script) == ("sr", "Latn") and observation["ekavian"]
    decision = site_variety(host, _site(host, [("/index_cg.html", ekavian, None), ("/index_en.html", ENGLISH, "en")]))
    assert decision.variety == "sr" and _labels(decision)["index_cg.html"] == "sr-Latn"


def test_the_same_page_in_ijekavian_stays_montenegrin():
    host = "boka-tours.example.com"
    ijekavian = BOAT_TOUR.format(prelepom="prelijepom", posetu="posjetu")
    assert prepared(f"http://{host}/index_cg.html", ijekavian)[:2] == ("cnr", "Latn")
    decision = site_variety(host, _site(host, [("/index_cg.html", ijekavian, None), ("/index_en.html", ENGLISH, "en")]))
    assert decision.variety == "cnr" and _labels(decision)["index_cg.html"] == "cnr"
