"""A page's declarations weigh in with its text: inside the family the text chose, never across."""
from crawlweb.crawler.htmlparse import parse_html
from crawlweb.language.identify import identify_language
from crawlweb.services.page_language import identify_page_language
from tests.language.snippets import (
    CROATIAN,
    EKAVIAN_SERBIAN,
    ENGLISH,
    IJEKAVIAN_SERBIAN,
    MACEDONIAN,
    MONTENEGRIN,
    SERBIAN_CYRILLIC,
    SERBIAN_MENU_PAGE,
    prepared,
)


def test_ijekavian_text_alone_is_not_called_serbian():
    language, _script, _obs = prepared("http://pravni-blog.example.com/medijacija.html", IJEKAVIAN_SERBIAN)
    assert language in ("hr", "bs", "cnr")


def test_a_serbian_marked_page_with_ijekavian_text_stays_serbian():
    for url, lang in (("http://pravni-blog.example.com/sr/medijacija.html", None),
                      ("http://pravni-blog.example.com/medijacija.html", "sr"),
                      ("http://pravni-blog.example.com/medijacija_sr.html", "en")):
        language, script, observation = prepared(url, IJEKAVIAN_SERBIAN, lang)
        assert (language, script) == ("sr", "Latn"), (url, lang)
        assert observation["declared"], "the declaration that decided is kept with the page"


def test_a_declaration_does_not_beat_clear_text_of_another_variety_or_family():
    # three distinct ekavian words (umetnost, reč, osećanje: Serbian only) outweigh one declaration
    assert prepared("http://x.com/hr/umetnost.html", EKAVIAN_SERBIAN)[0] == "sr"
    assert prepared("http://x.com/umetnost.html", EKAVIAN_SERBIAN, "hr")[0] == "sr"
    assert prepared("http://x.com/sr/about.html", ENGLISH, "sr")[0] == "en"
    assert prepared("http://x.com/sr/about.html", CROATIAN, "sr")[0] == "hr"  # tko/tisuća-style words


def test_a_template_lang_en_on_serbian_text_is_ignored():
    assert prepared("http://aleksandar.example.com/profil.html", SERBIAN_MENU_PAGE, "en")[:2] == ("sr", "Latn")


def test_macedonian_cyrillic_is_not_serbian_even_under_a_serbian_declaration():
    assert prepared("http://parks.example.com/mk/za-nas.html", MACEDONIAN, "mk")[0] == "mk"
    assert prepared("http://parks.example.com/sr/za-nas.html", MACEDONIAN, "sr")[0] == "mk"
    assert prepared("http://spc.example.rs/vesti.html", SERBIAN_CYRILLIC, "sr")[:2] == ("sr", "Cyrl")


def test_a_montenegrin_page_declaring_sr_is_montenegrin_where_the_country_says_so():
    language, _script, observation = prepared("http://gontech.me/index.html", MONTENEGRIN, "sr")
    assert language == "cnr"
    assert observation["phone"] == "cnr"
    assert prepared("http://gontech.example.com/index-cnr.html", MONTENEGRIN, "sr")[0] == "cnr"  # URL over lang


def test_without_declarations_the_identifier_answers_as_before():
    plain = identify_language(IJEKAVIAN_SERBIAN)
    assert plain.lang in ("hr", "bs", "cnr") and "declared" not in plain.evidence


def test_dot_me_alone_does_not_make_an_ekavian_serbian_page_montenegrin():
    # petsitty.me (a Serbian pet-sitting firm, /sr/ with lang=sr): .me sold as an English word
    text = ("PetSitty.me – Siting, šetnja pasa i nega kućnih ljubimaca u Srbiji | PetSitty.me\n"
            "Sajt PetSitty.me je trenutno u izradi. Uskoro se otvaramo i nudimo najbolje usluge za vaše ljubimce!")
    assert prepared("http://petsitty.me/sr/index.html", text, "sr")[:2] == ("sr", "Latn")


def test_placeholder_runs_do_not_make_a_serbian_page_undetermined():
    # dacalalic/FitnessSite: a real Serbian menu over a "Duzi opis: aaaa aa aaa" placeholder
    placeholder = ("aaaa aa aa aaa aaaaaaaaaa aaaaaaaaa aaaaaa aaaa aaaaa aa aaaaa aaaaa aaaaaa aaaaa a a aa a a "
                   "aaaaa aaaa aaa a aaaaaaa aaaaaa aaaaaaaaaa aaaa aaaa aaaaaaa aaaa aaa aaaaaaaaaa aaaaaaaaaaa "
                   "aaaaaaaaa aaaaaa aaa aa aaaaa a aaaaa aaaaaaa aaaaaaa aaaaaaaa aaaaaa aaaaaaaa aaaaaaaa aaaaa "
                   "aaa aaaaa aaaaa aaaa aaaaa aa aa a aaa aaa a aa aaaaaa aaaaaaaaa aaaaaa aaaaa aaaa aaaaaaaa "
                   "aaaaaaa aaaaaaaa aaa aaa aaaaaa aaaaaa aaaaa a")
    text = ("VERSUS\nFITNESS\nPočetna\nUsluge\nTreninzi Nutricionista Masaže\nZakazivanje treninga\nMoj nalog\n"
            "O nama\nUsluge\nTreninzi\nYoga\nHatha\nSRB ENG\nHatha\nTrajanje: 1.30h Nivo: 5\nDuzi opis:"
            + placeholder + "\nOcena\nPošalji ocenu\nKomentar\nPošalji komentar\nPogledaj komentare ▼\n×\n"
            "Copyright © 2020, Lalić Danilo & Labović Božo, Odsek za softversko inženjerstvo Elektrotehničkog "
            "fakulteta Univerziteta u Beogradu")
    page = f"<html><head><title>Fitness/Yoga1</title></head><body>{text}</body></html>"
    url = "http://fitnesssite.example.com/training_yoga_1.html"
    assert identify_page_language(parse_html(page, url), url)[0] == "sr"


# An English body between a gym's Serbian menu and footer: as many English as Serbian dictionary words.
MIXED_GYM_PAGE = """Početna
O nama
Treninzi
Nutricionista
Masaže
Zakaži trening
Nutritionist
Our nutritionist prepares a diet plan for every member of the gym.
Healthy food and regular training give the best results, and we help you keep both.
Book a consultation at the reception.
Radno vreme: ponedeljak – petak od 7 do 23 časa, subota od 9 do 20 časova
Adresa: Bulevar kralja Aleksandra 73, Beograd
Pratite nas na društvenim mrežama
Sva prava zadržana"""


def test_a_mixed_page_is_the_language_its_own_address_declares():
    url = "http://gym.example.com/eng/nutricionista.html"
    assert identify_language(MIXED_GYM_PAGE, url=url, html_lang="en").lang == "en"
    # the words tie: the page's own /eng/ decides, not a template's lang="sr" copied onto every page
    assert identify_language(MIXED_GYM_PAGE, url=url, html_lang="sr").lang == "en"
    # with no declaration of its own the page keeps the words' guess (a template's html lang is no tie-break)
    assert identify_language(MIXED_GYM_PAGE, url="http://gym.example.com/nutricionista.html", html_lang="en").lang == "sr"


def test_a_weak_guess_without_a_dictionary_gives_way_to_the_declared_language_whose_words_these_are():
    from crawlweb.language.declared import page_declarations
    from crawlweb.language.identify import LanguageGuess, _declared_words, words

    tokens = words(ENGLISH)
    declared = page_declarations("http://festival.example.com/en/prodajna_mesta.html")
    weak = LanguageGuess("de", "Latn", 0.21, {"decision": "fastText"})
    assert _declared_words(weak, tokens, "Latn", declared).lang == "en"
    undeclared = page_declarations("http://festival.example.com/prodajna_mesta.html")
    assert _declared_words(weak, tokens, "Latn", undeclared).lang == "de"


GERMAN = ("Unsere Praxis liegt im Zentrum der Stadt. Wir freuen uns auf Ihren Besuch und beraten Sie gerne "
          "über alle Behandlungen, die wir anbieten. Termine vereinbaren Sie bitte telefonisch.")
ENGLISH_PRICE_MENU = """Golden Dragon
EN SR
Home
Menu
Contact
Soups
- Hot and sour soup
In the restaurant ~ 450 din
Delivery ~ 520 din
- Wonton soup
In the restaurant ~ 480 din
Delivery ~ 560 din
Rice
- Egg fried rice
In the restaurant ~ 390 din
Delivery ~ 470 din
- Pork fried rice
In the restaurant ~ 610 din
Delivery ~ 690 din
Noodles
- Vegetable noodles
In the restaurant ~ 520 din
Delivery ~ 600 din
"""


def test_a_confident_guess_without_a_dictionary_gives_way_only_to_a_declared_language_that_knows_the_words():
    from crawlweb.language.declared import page_declarations
    from crawlweb.language.identify import LanguageGuess, _declared_words, words

    declared_en = page_declarations("http://festival.example.com/en/prodajna_mesta.html")
    confident = LanguageGuess("de", "Latn", 0.9, {"decision": "fastText"})
    # English words under an English declaration: the English dictionary knows nearly all of them
    assert _declared_words(confident, words(ENGLISH), "Latn", declared_en).lang == "en"
    # German words under the same declaration: the English dictionary does not, the guess stands
    assert _declared_words(confident, words(GERMAN), "Latn", declared_en).lang == "de"
    undeclared = page_declarations("http://festival.example.com/prodajna_mesta.html")
    assert _declared_words(confident, words(ENGLISH), "Latn", undeclared).lang == "de"


def test_an_english_price_menu_that_fasttext_calls_romanian_is_english_by_its_html_lang_and_its_words():
    # the real case: a restaurant's English menu (dishes, "~ 710 din" prices), fastText "ro" at 0.96
    without = identify_language(ENGLISH_PRICE_MENU, url="http://golden-dragon.example.com/menu.html")
    assert without.lang == "ro", "the text alone: fastText's confident answer, no dictionary to check it"
    declared = identify_language(ENGLISH_PRICE_MENU, url="http://golden-dragon.example.com/menu.html", html_lang="en")
    assert declared.lang == "en"
    assert declared.evidence["declared_words"]["lang"] == "en"


def _team_page(menu: str, intro: str, labels: tuple[str, str, str, str], button: str) -> str:
    """A student project's team page, written for this test: each author's card gives the name of their
    faculty and department, which stay Serbian on the English page, as does the footer's copyright."""
    developer, mail, school, department = labels
    cards = "".join(
        f"<div class='col'><ul><li><b>{developer} :</b> {name}</li><li><b>{mail} :</b> {login}@example.com</li>"
        f"<li><b>{school} :</b> Elektronski fakultet Univerziteta u Nišu</li>"
        f"<li><b>{department} :</b> Katedra za računarstvo</li></ul><button>{button}</button></div>"
        for name, login in (("Jelena Petrović", "jelena.petrovic"), ("Marko Stojanović", "marko.stojanovic")))
    return (f"<html><head><title>Bike Rent</title></head><body><nav class='navbar'>{menu}</nav>"
            f"<div class='container'><h2>{intro}</h2>{cards}</div><footer>Copyright 2021, Jelena Petrović, "
            "Marko Stojanović, Katedra za računarstvo Elektronskog fakulteta Univerziteta u Nišu</footer></body></html>")


ENGLISH_TEAM = _team_page("Home Bikes Locations About us Authors Prices Contact",
                          "We are always here to answer your questions and hear your suggestions!",
                          ("Developer", "E-mail", "University", "Department"), "Write to the developer")
SERBIAN_TEAM = _team_page("Početna Bicikli Lokacije O nama Autori Cene Kontakt",
                          "Uvek smo tu da odgovorimo na vaša pitanja i čujemo vaše predloge!",
                          ("Developer", "E-mail", "Fakultet", "Smer"), "Piši developeru")


def test_english_labels_around_serbian_names_are_the_english_page_its_address_declares():
    # The names weigh as much in the dictionaries as the English words: the words tie, and the page's own
    # "_eng" decides. Its Serbian twin stays Serbian.
    url = "http://bikerent.example.com/tim_eng.html"
    parsed = parse_html(ENGLISH_TEAM, url)
    assert identify_language(parsed.text, title=parsed.title).lang == "sr"  # what the words alone say
    assert identify_page_language(parsed, url)[:2] == ("en", "Latn")
    twin = "http://bikerent.example.com/tim.html"
    assert identify_page_language(parse_html(SERBIAN_TEAM, twin), twin)[:2] == ("sr", "Latn")
