"""What a page declares about its language: tags, the URL's marker, its own hreflang, og:locale."""
import pytest

from crawlweb.crawler.htmlparse import parse_html
from crawlweb.language.declared import LanguageTag, page_declarations, parse_tag, parsed_page_declarations, url_marker


@pytest.mark.parametrize("tag, expected", [
    ("sr-Latn-RS", LanguageTag("sr", "Latn", "RS")),
    ("sr_RS@latin", LanguageTag("sr", "Latn", "RS")),
    ("sr-Cyrl", LanguageTag("sr", "Cyrl")),
    ("bs-ba", LanguageTag("bs", None, "BA")),
    ("hr-HR", LanguageTag("hr", None, "HR")),
    ("me", LanguageTag("cnr")),
    ("en-gb", LanguageTag("en", None, "GB")),
])
def test_declared_tags_are_read_as_language_script_and_region(tag, expected):
    assert parse_tag(tag) == expected


@pytest.mark.parametrize("tag", [None, "", "   ", "123", 42])
def test_an_empty_or_unreadable_tag_declares_nothing(tag):
    assert parse_tag(tag) is None


@pytest.mark.parametrize("url, language, script", [
    ("http://www.sft21.com/odluka_sr.html", "sr", None),             # file name suffix
    ("http://gontech.me/index-cnr.html", "cnr", None),
    ("http://genocideinprijedor.com/ba/about/", "bs", None),          # a folder, "ba" for Bosnian
    ("http://x.rs/eng/biographies.html", "en", None),
    ("http://x.rs/sr/lat/vesti.html", "sr", "Latn"),
    ("http://tamarakrunic.github.io/index_cir.html", None, "Cyrl"),   # script only
    ("http://x.rs/ћир/вести.html", None, "Cyrl"),
    ("http://x.rs/vesti?lang=sr", "sr", None),
    ("http://x.com/sr-latn/a.html", "sr", "Latn"),
    ("http://en.x.rs/about", "en", None),                              # language subdomain
    ("http://x.rs/kontaktENG.html", "en", None),                      # a capitalised code glued on
    ("http://x.rs/glumci2ENG.html", "en", None),
    ("http://x.rs/receptiEn.html", "en", None),
    ("http://x.rs/Recepti/onamaSRB.HTML", "sr", None),
])
def test_the_urls_language_marker_is_found_where_sites_put_it(url, language, script):
    assert url_marker(url) == LanguageTag(language, script)


@pytest.mark.parametrize("url", ["http://x.com/kontakt.html", "http://x.com/it-services.html",
                                 "http://me.example.com/", "http://x.com/time-me.html", "http://x.com/",
                                 "http://x.com/kontakten.html", "http://x.com/homePage.html",
                                 "http://x.com/contactMe.html", "http://x.com/aboutUs.html", "http://x.com/NEWS.html"])
def test_words_that_look_like_codes_are_not_markers(url):
    assert url_marker(url) is None


def test_a_page_declares_through_its_own_hreflang_and_og_locale():
    html = ('<html lang="en"><head><meta property="og:locale" content="sr_RS">'
            '<link rel="alternate" hreflang="sr-Latn" href="http://x.rs/o-nama/">'
            '<link rel="alternate" hreflang="en" href="http://x.rs/en/about/">'
            '<link rel="alternate" hreflang="x-default" href="http://x.rs/o-nama/"></head>'
            '<body><p>Tekst</p></body></html>')
    url = "http://www.x.rs/o-nama/index.html"  # www. and index.html name the same page
    declarations = parsed_page_declarations(parse_html(html, url), url)
    assert declarations.languages() == {"html_lang": "en", "og_locale": "sr", "hreflang_self": "sr"}
    assert declarations.script == "Latn"


def test_alternates_of_other_pages_are_not_a_self_declaration():
    declarations = page_declarations("http://x.rs/en/about/", "en", None, [("http://x.rs/o-nama/", "sr")])
    assert declarations.hreflang_self is None
    assert declarations.languages() == {"html_lang": "en", "url": "en"}
