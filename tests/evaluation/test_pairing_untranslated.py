"""Content check "untranslated": a side whose body is not in its language is rejected with that reason."""
from evaluation.pairing.records import PageRecord
from evaluation.pairing.similarity import filter_pair
from evaluation.pairing.untranslated import body_language_mismatch, function_word_counts

# Visible text of two pages of a urologist's site (shared/data/real-sites,
# AleksandarJanjic/prof-dr-miodrag-acimovic: operacije.html and surgeries.html), cut short: the
# Serbian page has a Serbian menu over the English page's body, never translated.
SERBIAN_MENU_ENGLISH_BODY = (
    "Prof. dr Miodrag Aćimović POČETNA OPERACIJE INTERVENCIJE KONTAKT ENGLISH Surgery Live First Live surgery "
    "in Belgrade organised by Miodrag Aćimović, MD, PhD Read more Interview Interview on the subject of Erectile "
    "dysfunction Read more Urology Today Miodrag Aćimović, MD, PhD: Radical prostatectomy vs brachytherapy Read "
    "more Good Morning Show Miodrag Aćimović, MD, PhD on the Good Morning Show Read more Operative Urology TV "
    "report on the opening of the School of Urological Surgery in Pirot, Serbia Read more")
ENGLISH_PAGE = (
    "Miodrag Aćimović, MD, PhD HOME SURGERIES INTERVENTIONS CONTACT SRPSKI Surgery Live First Live surgery in "
    "Belgrade organised by Miodrag Aćimović, MD, PhD Read more Interview Interview on the subject of Erectile "
    "dysfunction Read more Urology Today Miodrag Aćimović, MD, PhD: Radical prostatectomy vs brachytherapy Read "
    "more Good Morning Show Miodrag Aćimović, MD, PhD on the Good Morning Show Read more Operative Urology TV "
    "report on the opening of the School of Urological Surgery in Pirot, Serbia Read more")
# A translated pair of a travel agency's site (shared/data/real-sites, stojadin2701/empire:
# seasons.html and seasons-sr.html), cut short.
ENGLISH_HOTEL = (
    "Four Seasons Hotel Description Overlooking Sydney's historic Rocks area, Four Seasons Hotel has free Wi-Fi, a "
    "bar, restaurant, fitness center and swimming pool. It features luxurious rooms with panoramic views of the "
    "iconic Sydney Opera House and Circular Quay. All rooms at Sydney’s Four Seasons have been carefully designed "
    "and subtly furnished with the highest quality amenities. Each room includes an LCD TV, an iPod docking station "
    "and free Appelles toiletries.")
SERBIAN_HOTEL = (
    "Four Seasons Hotel Opis Sa pogledom na istorijsku Rocks oblast, Four Seasons Hotel ima besplatan Wi-Fi, bar, "
    "restoran, fitness centar i bazen za plivanje. Takođe ga ističu luksuzne rooms sa panoramskim pogledom na "
    "legendarnu opera kuću i kružni kej. Sve sobe u hotelu su pažljivo dizajnirane i subtilno nameštene sa "
    "pogonostima najvišeg kvaliteta. Svaka soba uključuje LCD TV i doking stanicu za iPod.")
# The same hotel text with the Serbian menu of the site over it: an "English"-bodied Serbian page.
SERBIAN_MENU = "Leto 2016 Evropski Gradovi Egzotične Destinacije Nova Godina 2016 O Nama Kontakt Početna "


def _page(url, lang, text):
    return PageRecord(url, lang, text_length=len(text), text=text)


def test_a_serbian_page_whose_body_stayed_english_is_rejected_as_untranslated():
    verdict = filter_pair(_page("http://u.test/operacije.html", "sr-Latn", SERBIAN_MENU_ENGLISH_BODY),
                          _page("http://u.test/surgeries.html", "en", ENGLISH_PAGE), {}, languages=("sr", "en"))
    assert not verdict.keep
    assert verdict.reason.startswith("untranslated: the sr page's body is in en")


def test_an_english_page_with_a_serbian_body_under_an_english_menu_is_rejected():
    english_menu_serbian_body = "Home About Contact Language(EN) English " + SERBIAN_HOTEL
    verdict = filter_pair(_page("http://t.test/seasons-sr.html", "sr-Latn", SERBIAN_MENU + SERBIAN_HOTEL),
                          _page("http://t.test/seasons.html", "en", english_menu_serbian_body), {},
                          languages=("sr", "en"))
    assert not verdict.keep and verdict.reason.startswith("untranslated: the en page's body is in sr")


def test_a_translated_pair_passes_and_the_check_can_be_switched_off():
    sr, en = _page("http://t.test/seasons-sr.html", "sr-Latn", SERBIAN_HOTEL), _page("http://t.test/seasons.html",
                                                                                    "en", ENGLISH_HOTEL)
    verdict = filter_pair(sr, en, {}, languages=("sr", "en"))
    assert verdict.keep, verdict.reason
    assert verdict.scores["shared_text"] < 0.3
    bad = _page("http://u.test/operacije.html", "sr-Latn", SERBIAN_MENU_ENGLISH_BODY)
    assert filter_pair(bad, en, {}, languages=("sr", "en"), check_untranslated=False).keep


def test_function_words_are_counted_in_both_scripts_and_short_texts_are_not_judged():
    assert function_word_counts("Ово је кућа и то је све", ("en", "sr"))["sr"] == 5
    assert body_language_mismatch("Kontakt i mapa", "en", "sr") is None, "too few words to tell"
    assert body_language_mismatch(ENGLISH_HOTEL, "en", "sr") is None
    assert body_language_mismatch(ENGLISH_HOTEL, "sr", "en").startswith("untranslated: the sr page's body is in en")
    assert body_language_mismatch(ENGLISH_HOTEL, "de", "en") is None, "no word list for German: no verdict"
