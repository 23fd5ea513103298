"""Dictionaries weigh in with declarations (identify._declared_words, identify._dictionary_fallback): a
declared language whose dictionary knows clearly more of the words wins, and a page the decision left
undetermined takes the first language (declared first, then fastText's) whose dictionary knows them."""
from crawlweb.language.identify import identify_language
from tests.language.snippets import prepared

# web-presentation-art-gallery (development web, en/o-nama.html, lang="en"): an English menu over a
# Serbian footer, whose markers pass the family gate; the Serbian dictionary then rejects the words.
ART_GALLERY_EN = ("GALLERY\nOF ART\nMenu\nHome page\nArtworks\nPaintings Skulpture Other artworks\nArtists\n"
                  "My account\nAbout us\nLanguage\nSrpski English\nAwards\nCSS Awards 2021\nD&AD Awards 2022\n"
                  "The Shopify Commerce Awards 2023\nContact\nPhone: 555-333\nEmail: mb200207d@student\n"
                  "Copyright 2023, Bogdan Mihajlović, Odsek za softversko inženjerstvo Elektrotehničkog "
                  "fakulteta Univerziteta u Beogradu")
# www.drustvohispanistasrbija.rs (contact-en.html, lang="en"): fastText's best label is "sh".
DH_CONTACT_EN = ("Contact Us\nEmail\ndrustvo.hispanista@gmail.com\nSocial Media\nInstagram Facebook\n"
                 "We look forward to collaborating!")
# nsd-electronic (en/galerija.html, lang="en"): seven capitalised menu words; fastText says zh.
NSD_GALLERY_EN = "GALLERY\nHome\nGallery\nPHOTO\nVIDEO\nPhotos\nVideo"
# fitnesssite (services-sr.html, no lang): a Serbian menu over placeholder text; fastText says en.
FITNESS_SERVICES_SR = ("VERSUS\nFITNESS\nPočetna\nUsluge\nTreninzi Nutricionista Masaže\nZakazivanje treninga\n"
                       "Moj nalog\nO nama\nUsluge\nSRB ENG\nUsluge našeg centra\nMESTO ZA REKLAMU\nTreninzi\n"
                       "Neki tekst....aaaaaaaaaaaaaaaaaaaaa aaaaaaaaaaaaa aaaaaaaaaaa ssssssssssss a saddasdio "
                       "sdaiojd sdasodiajsiodjdiosjdaiosj\nMESTO ZA REKLAMU\nNutricionista\nMasaže")


def test_an_english_menu_over_a_serbian_footer_is_english():
    language, script, _ = prepared("http://gallery.example.com/en/o-nama.html", ART_GALLERY_EN, "en")
    assert (language, script) == ("en", "Latn")


def test_short_english_pages_fasttext_files_elsewhere_are_english():
    assert prepared("http://dh.example.rs/contact-en.html", DH_CONTACT_EN, "en")[0] == "en"
    assert prepared("http://nsd.example.com/en/galerija.html", NSD_GALLERY_EN, "en")[0] == "en"


def test_a_serbian_menu_over_placeholder_text_is_serbian():
    assert prepared("http://fitness.example.com/services-sr.html", FITNESS_SERVICES_SR)[:2] == ("sr", "Latn")


def test_what_decided_is_in_the_evidence():
    guess = identify_language(ART_GALLERY_EN, url="http://gallery.example.com/en/o-nama.html", html_lang="en")
    assert guess.evidence["declared_words"]["lang"] == "en" and guess.evidence["dictionary_checked"] == "sr"
    assert "declared en, whose dictionary knows as many words or more" in guess.evidence["decision"]
    guess = identify_language(NSD_GALLERY_EN, url="http://nsd.example.com/en/galerija.html", html_lang="en")
    assert guess.evidence["dictionary_fallback"]["lang"] == "en"
    assert "en dictionary knows the words" in guess.evidence["decision"]


def test_a_template_lang_en_over_serbian_words_stays_serbian():
    # the Serbian menu knows its Serbian words: the declared English finds fewer
    assert prepared("http://fitness.example.com/services.html", FITNESS_SERVICES_SR, "en")[:2] == ("sr", "Latn")


def test_junk_no_dictionary_knows_stays_undetermined():
    junk = "asdkj qwpoe zmxnv lkjhg poiuy trewq mnbvc xzlkj hgfds"
    assert identify_language(junk, url="http://x.example.com/en/a.html", html_lang="en").lang == "und"
