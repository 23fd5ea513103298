"""identify_language on short hand-written sentences: script, sr vs hr, sr vs mk, hints, junk."""
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from crawlweb.language.identify import LanguageGuess, identify_language

SERBIAN_EKAVIAN = (
    "Deca su juče posle škole otišla na reku. Uvek je lepo videti koliko se vreme promenilo "
    "i koliko je mesto lepše nego pre."
)
CROATIAN_IJEKAVIAN = (
    "Djeca su jučer poslije škole otišla na rijeku. Uvijek je lijepo vidjeti koliko se vrijeme "
    "promijenilo, a tko zna što će biti sljedeći tjedan."
)
SERBIAN_CYRILLIC = "Ђаци су после часова отишли у библиотеку, где ће учитељица да им покаже нове књиге."
MACEDONIAN = "Учениците по часовите отидоа во библиотеката, каде што учителката ќе им ги покаже новите книги."
ENGLISH = "The students went to the library after class, where the teacher showed them the new books."
SLOVENE = "Učenci so po pouku odšli v knjižnico, kjer jim je učiteljica pokazala nove knjige."
# Shared BCMS wording without any marker of one standard: only site signals can decide.
UNMARKED_BCMS = "Naša firma nudi kvalitetne usluge i proizvode za kupce."


def test_ekavian_serbian_latin_is_sr_latn():
    guess = identify_language(SERBIAN_EKAVIAN)
    assert guess.tag == "sr-Latn"
    assert guess.evidence["variety_scores"]["sr"] > 2 * guess.evidence["variety_scores"]["hr"]


def test_ijekavian_croatian_is_hr():
    assert identify_language(CROATIAN_IJEKAVIAN).lang == "hr"


def test_croatian_month_names_and_lexis_point_to_croatian():
    text = "Sastanak o suradnji održat će se u ožujku, a izvješće stiže u travnju."
    assert identify_language(text).lang == "hr"


def test_serbian_month_names_and_fused_future_point_to_serbian():
    text = "Sastanak o saradnji biće održan u martu, a izveštaj stiže u aprilu."
    assert identify_language(text).tag == "sr-Latn"


def test_serbian_cyrillic_is_sr_cyrl_and_macedonian_is_mk():
    assert identify_language(SERBIAN_CYRILLIC).tag == "sr-Cyrl"
    assert identify_language(MACEDONIAN).tag == "mk"


def test_a_cyrillic_press_list_with_long_web_addresses_is_cyrillic_serbian():
    # an association's "media about us" page (umaes, dev-train): Cyrillic headlines, each with its Latin link
    links = ["https://www.capital.ba/akcionari-ers-porucili-vladi-rs-zadrugare-trazite-u-svojim-redovima/",
             "https://www.nezavisne.com/ekonomija/preduzeca/mali-akcionari-dodik-ce-biti-upoznat/712345",
             "https://www.rtrs.tv/vijesti/vijest.php?id=512345-udruzenje-malih-akcionara-trazi-sastanak"]
    headlines = ["Акционари ЕРС поручили Влади: задругаре тражите у својим редовима",
                 "Мали акционари: Додик ће бити упознат са нашим захтјевима",
                 "Удружење малих акционара тражи састанак са министром"]
    text = "Медији о нама\n" + "\n".join(f"{h}\n{u}" for h, u in zip(headlines, links))
    guess = identify_language(text)
    assert guess.tag == "sr-Cyrl", guess.evidence
    assert identify_language("\n".join(links)).lang == "und", "addresses alone are no text"


def test_english_and_slovene_are_not_taken_for_bcms():
    assert identify_language(ENGLISH).lang == "en"
    assert identify_language(SLOVENE).lang == "sl"


def test_a_serbian_menu_saying_nase_is_not_slovene():
    # panonia-print's Serbian pages: a menu and a contact block; "Naše" is as Serbian as it is Slovene
    menu = ("Panonia - Print.\nPočetna\nUsluga\nNaše mašine\nKorisnički servis\nUzorci/radovi\nKontakt\n"
            "Industrijska bb,\nBačka Topola 24300\nTelefon: 024 710 008\nPočetna\nUsluga\nNaše mašine\n"
            "Korisnički servis\nUzorci/radovi")
    guess = identify_language(menu, html_lang="en")
    assert guess.lang in ("sr", "hr", "bs", "cnr"), guess.evidence
    assert guess.evidence["function_words"]["sl"] == 0


def test_montenegrin_letters_point_to_montenegrin():
    assert identify_language("Đe si bio juče? Śutra ćemo poć na more sa đecom.").lang == "cnr"


@pytest.mark.parametrize(
    "url, expected",
    [("https://firma.rs/o-nama", "sr"), ("https://firma.hr/o-nama", "hr"),
     ("https://firma.ba/o-nama", "bs"), ("https://firma.me/o-nama", "cnr")],
)
def test_top_level_domain_breaks_a_tie_between_bcms_standards(url, expected):
    guess = identify_language(UNMARKED_BCMS, url=url)
    assert guess.evidence["markers"]["matched"] == []  # the text itself does not decide
    assert guess.lang == expected


def test_top_level_domain_does_not_override_strong_text_evidence():
    assert identify_language(SERBIAN_EKAVIAN, url="https://portal.hr/vijesti", html_lang="hr").tag == "sr-Latn"
    assert identify_language(CROATIAN_IJEKAVIAN, url="https://portal.rs/vesti", html_lang="sr").lang == "hr"


def test_a_declaration_outweighs_the_domain_where_the_text_does_not_decide():
    assert identify_language(UNMARKED_BCMS, html_lang="hr").lang == "hr"
    guess = identify_language(UNMARKED_BCMS, url="https://firma.rs/", html_lang="hr-HR")
    assert guess.evidence["hints"] == {"html_lang": {"hr": 2.0}, "tld": {"sr": 1.5}}
    assert guess.lang == "hr"


def test_the_urls_language_marker_outweighs_html_lang_but_not_the_text():
    guess = identify_language(UNMARKED_BCMS, url="https://example.com/hr/o-nama", html_lang="sr")
    assert guess.evidence["hints"] == {"url": {"hr": 3.0}, "html_lang": {"sr": 2.0}}
    assert guess.lang == "hr"
    assert identify_language(SERBIAN_EKAVIAN, url="https://example.com/?lang=hr").tag == "sr-Latn"


def test_html_lang_does_not_make_english_serbian():
    assert identify_language(ENGLISH, url="https://firma.rs/", html_lang="sr").lang == "en"


@pytest.mark.parametrize(
    "text",
    ["", "   \n\t ", "ok", "Da.", "12345 !!! ### 678 90", "<div></div><div></div>",
     "asdf qwer zxcv", "Lorem ipsum dolor sit amet, consectetur adipiscing elit"],
)
def test_empty_short_or_junk_text_is_undetermined(text):
    guess = identify_language(text)
    assert guess.lang == "und"
    assert guess.tag == "und" and guess.confidence == 0.0


def test_non_text_input_is_refused_with_a_clear_error():
    with pytest.raises(TypeError, match="str"):
        identify_language(b"bytes are not text")  # type: ignore[arg-type]


def test_guess_carries_tag_confidence_and_json_evidence():
    guess = identify_language(SERBIAN_EKAVIAN, url="https://primer.rs/", html_lang="sr", title="Vesti")
    assert isinstance(guess, LanguageGuess)
    assert guess.script == "Latn" and 0.0 < guess.confidence <= 1.0
    decoded = json.loads(json.dumps(guess.evidence))
    assert decoded["hints"]["tld"] == {"sr": 1.5}
    assert "fasttext" in decoded and "script" in decoded


def test_tag_adds_a_script_only_where_it_is_informative():
    assert LanguageGuess("sr", "Cyrl", 0.9).tag == "sr-Cyrl"
    assert LanguageGuess("en", "Latn", 0.9).tag == "en"
    assert LanguageGuess("mk", "Cyrl", 0.9).tag == "mk"
    assert LanguageGuess("bs", "Cyrl", 0.9).tag == "bs-Cyrl"


def test_concurrent_calls_give_the_same_answers_as_serial_calls():
    texts = [SERBIAN_EKAVIAN, CROATIAN_IJEKAVIAN, SERBIAN_CYRILLIC, MACEDONIAN, ENGLISH, SLOVENE] * 5
    serial = [identify_language(t).tag for t in texts]
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = [g.tag for g in pool.map(identify_language, texts)]
    assert parallel == serial
