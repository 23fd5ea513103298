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


# A junior developer's portfolio (real development web, my-portfolio): the Serbian page's body is
# translated, but both pages keep the template's English placeholder text on every project card.
CARD = "Some quick example text to build on the card title and make up the bulk of the card's content."
PORTFOLIO_SR = "\n".join([
    "Work", "Resume", "Contact",
    "Zdravo, ja sam Dragan i ja sam frontend junior Javascript developer",
    "Ja sam junior Javascript developer sa sedištem u Mladenovcu, Srbija. Imam 1 godinu komercijalnog iskustva "
    "i specijalizovan sam za izradu veb sajtova. Otvoren sam za nove mogućnosti i zanimljive projekte.",
    "Proverite moj komercijalni i nekomercijalni projekat.",
    "Ako imate bilo kakva pitanja slobodno me pitajte za više informacija.",
] + [f"Project {i}\n{CARD}" for i in range(9)])
PORTFOLIO_EN = "\n".join([
    "Work", "Resume", "Contact",
    "Hello, I am Dragan and I am a frontend junior Javascript developer",
    "I am a junior Javascript developer based in Mladenovac, Serbia. I have 1 year of commercial experience and I "
    "specialise in building websites. I am open to new opportunities and interesting projects.",
    "Check my commercial and non-commercial projects.",
    "If you have any questions, feel free to ask me for more information.",
] + [f"Project {i}\n{CARD}" for i in range(9)])
LOREM = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et "
         "dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi")
# A heating firm's gallery (termo): a translated frame over the template's filler, the same on both pages.
GALLERY_SR = "\n".join(["Početna", "O nama", "Galerija", "Kontakt", "Ventilacija", LOREM, "Hlađenje, grejanje", LOREM,
                        "Sanitarije", LOREM, "89077 Ulm, Schillerstr. 22"])
GALLERY_EN = "\n".join(["Home", "About us", "Gallery", "Contact", "Ventilation", LOREM, "Cooling, heating", LOREM,
                        "Sanitary", LOREM, "89077 Ulm, Schillerstr. 22"])


def _verdict(sr_text, en_text):
    return filter_pair(_page("http://p.test/srpski.html", "sr-Latn", sr_text), _page("http://p.test/", "en", en_text),
                       {}, languages=("sr", "en"))


def test_english_placeholder_text_on_both_pages_does_not_make_a_translated_body_untranslated():
    verdict = _verdict(PORTFOLIO_SR, PORTFOLIO_EN)
    assert verdict.keep, verdict.reason
    assert verdict.scores["shared_text"] >= 0.75 and verdict.scores["own_bodies_translated"]


def test_a_translated_frame_over_the_same_filler_is_not_shared_text():
    verdict = _verdict(GALLERY_SR, GALLERY_EN)
    assert verdict.keep, verdict.reason
    assert verdict.scores["shared_text"] < 0.75


def test_a_serbian_menu_over_the_english_pages_lines_is_still_untranslated():
    body = SERBIAN_MENU_ENGLISH_BODY.split("ENGLISH ", 1)[1].replace(" Read more ", "\nRead more\n")
    serbian = "POČETNA\nOPERACIJE\nINTERVENCIJE\nKONTAKT\nENGLISH\n" + body
    english = "HOME\nSURGERIES\nINTERVENTIONS\nCONTACT\nSRPSKI\n" + body
    verdict = _verdict(serbian, english)
    assert not verdict.keep
    assert verdict.reason.startswith("untranslated: the sr page's body is in en"), verdict.reason
    # the same frame over a copied card text with no body of its own: shared text, not a translation
    copy = _verdict("Rad\nBiografija\nKontakt\n" + "\n".join([CARD] * 6), "Work\nResume\nContact\n" + "\n".join([CARD] * 6))
    assert not copy.keep and copy.reason.startswith("untranslated:"), copy.reason
