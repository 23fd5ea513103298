"""A page announcing its language version is no page in that language; a site under construction is."""
from crawlweb.language.identify import identify_language
from crawlweb.language.placeholder import placeholder_phrase

MENU = "TR Servisi | Services | Solutions | Clients | Partners | Contact | SR | EN"


def test_an_announced_translation_is_a_placeholder_in_english_and_in_serbian():
    assert placeholder_phrase(f"{MENU} English version coming soon. The English version of the website "
                              "is currently in preparation.")
    assert placeholder_phrase("Početna | Kontakt | SR | EN Srpska verzija sajta je u pripremi.")
    assert placeholder_phrase("Почетна | Контакт | Српска верзија сајта је у изради.")


def test_a_site_under_construction_in_both_languages_is_not_a_placeholder_of_either():
    # petsitty.me: both homes say the site opens soon; truth pairs them as a translation
    assert placeholder_phrase("PetSitty.me | The website is currently under construction. We're launching "
                              "soon with the best pet care services!") is None
    assert placeholder_phrase("PetSitty.me | Sajt je trenutno u izradi. Uskoro se otvaramo!") is None


def test_a_page_with_a_body_of_its_own_is_not_a_placeholder():
    body = " ".join(["Our engineers design, install and maintain networks for hotels and hospitals."] * 8)
    assert placeholder_phrase(f"{MENU} {body} A German version is coming soon.") is None


def test_the_identifier_leaves_a_placeholder_undetermined_and_says_why():
    guess = identify_language(f"{MENU}\nEnglish version coming soon\nThe English version of the website "
                              "is currently in preparation.", url="http://trs.example/en/index.html", html_lang="en")
    assert guess.lang == "und"
    assert "placeholder" in guess.evidence["decision"]
    real = identify_language(f"{MENU}\nReliable IT and AV solutions for your business. We design, build and "
                             "maintain modern technology systems.", url="http://trs.example/en/index.html")
    assert real.lang == "en"
