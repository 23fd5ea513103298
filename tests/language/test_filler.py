"""A template's lorem ipsum is no page's language: the page is the language of its other lines."""
from crawlweb.language.filler import is_filler, without_filler
from crawlweb.language.identify import identify_language

LOREM = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore "
         "et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi")
ENGLISH_FRAME = ["LOCATION", "89077 Ulm, Schillerstr. 22", "Home", "About us", "References", "Gallery", "Contact",
                 "Ventilation", "Cold, heating", "Sanitary", "Our team installs heating and ventilation systems.",
                 "© Termomontaza 2019"]
SERBIAN_FRAME = ["Početna", "O nama", "Preporuke", "Galerija", "Kontakt", "Ventilacija", "Hlađenje, grijanje",
                 "Sanitarije", "Naš tim postavlja sisteme grijanja i ventilacije.", "© Termomontaza 2019"]


def _page(frame: list[str]) -> str:
    return "\n".join(frame[:8] + [LOREM] + frame[8:] + [LOREM, LOREM])


def test_a_translated_frame_over_filler_is_the_frames_language():
    english = identify_language(_page(ENGLISH_FRAME), url="http://termo.example/en/galerija_en.html")
    assert english.lang == "en" and english.evidence["lorem_ipsum_lines_left_out"] == 3
    serbian = identify_language(_page(SERBIAN_FRAME), url="http://termo.example/sr/galerija_sr.html")
    assert serbian.lang in ("sr", "bs"), serbian.evidence  # ijekavian "grijanje": the site decides the variety
    assert identify_language(_page(ENGLISH_FRAME)).lang == "en", "without any declaration too"


def test_a_page_of_filler_only_has_no_language():
    assert identify_language("\n".join([LOREM] * 4)).lang == "und"


def test_other_languages_sharing_latin_words_are_not_filler():
    assert not is_filler("Non è mai troppo tardi per imparare una lingua nuova in Italia.")  # non, in, a, una
    assert not is_filler("Ad astra per aspera: sit tibi terra levis")  # Latin, but no generator's word
    assert not is_filler("Lorem Ipsum")  # a heading about it is too short to be filler
    assert is_filler("Vestibulum ante ipsum primis in faucibus orci luctus et ultrices posuere cubilia")
    text = "Home\nVestibulum ante ipsum primis in faucibus orci luctus et ultrices posuere\nContact"
    assert without_filler(text) == ("Home\nContact", 1)
    assert without_filler("Home\nContact") == ("Home\nContact", 0)
