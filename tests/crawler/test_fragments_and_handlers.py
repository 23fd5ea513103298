"""Fragments a script inserts into a page, and handlers that pass a page to the site's own function
(crawlweb.crawler.fragments, scriptlinks.handler_page_arguments, htmlparse)."""
from crawlweb.crawler.fragments import is_html_fragment
from crawlweb.crawler.htmlparse import parse_html
from crawlweb.crawler.scriptlinks import handler_page_arguments

# The language buttons and menu of a gym site of the real development web (x-gym, dev-train): no href,
# the handlers call the site's functions with the page to open.
GYM_SWITCH = """<!DOCTYPE html><html><body>
<button class="language" type="button" onmousedown="changeLanguage(1, 'index_eng.html')">ENG</button>
<button onmousedown="changeLanguage(0, 'index.html')" class="language" type="button">SRB</button>
<ul><li><a onmousedown="promeni_stranicu('index.html', 'classes.html')">Usluge</a></li></ul>
</body></html>"""
# The header fragment of a film festival site (iffvdprojekat, dev-train): js/config.js does
# header.load("templates/header-main.html") into every page at the site's root.
FESTIVAL_HEADER = """<div class="container"><div class="row">
<a href = "index.html"><img src="res/logo.png"></a>
<a href = "index_eng.html"><img src="res/english.png"></img></a></div></div>"""


def test_a_handler_passing_a_page_file_to_a_function_leads_to_that_page():
    assert handler_page_arguments("changeLanguage(1, 'index_eng.html')", "http://gym.test/") == [
        "http://gym.test/index_eng.html"]
    assert handler_page_arguments("promeni_stranicu('index.html', \"classes.html\")", "http://gym.test/en/x.html") == [
        "http://gym.test/en/index.html", "http://gym.test/en/classes.html"]


def test_a_handler_argument_that_is_no_page_of_the_site_is_no_link():
    base = "http://gym.test/"
    assert handler_page_arguments("showImage('img/gym.png'); track('/api/click')", base) == []
    assert handler_page_arguments("go('https://other.example/page.html')", base) == []
    assert handler_page_arguments("setLanguage('en')", base) == []


def test_the_parsed_buttons_carry_their_pages_and_their_own_text():
    links = [(link.url, link.kind, link.anchor_text) for link in parse_html(GYM_SWITCH, "http://gym.test/").links]
    assert ("http://gym.test/index_eng.html", "onclick", "ENG") in links
    assert ("http://gym.test/classes.html", "onclick", "Usluge") in links
    # both pages of one handler end with its element: no text of later elements runs into their anchors
    assert ("http://gym.test/index.html", "onclick", "Usluge") in links


def test_markup_without_document_structure_is_a_fragment():
    assert is_html_fragment(FESTIVAL_HEADER)
    assert is_html_fragment("<!-- <html> in a comment --><nav><a href='x.html'>x</a></nav>")
    assert not is_html_fragment("<!DOCTYPE html><html><head></head><body><p>x</p></body></html>")
    assert not is_html_fragment("<body><p>a page without its html tag</p></body>")
    assert not is_html_fragment("plain text, no markup")
    assert not is_html_fragment("")


def test_a_fragments_links_are_read_against_the_page_it_is_inserted_into():
    own = parse_html(FESTIVAL_HEADER, "http://festival.test/templates/header-main.html")
    assert "http://festival.test/templates/index_eng.html" in {link.url for link in own.links}
    inserted = parse_html(FESTIVAL_HEADER, "http://festival.test/templates/header-main.html",
                          links_against="http://festival.test/index.html")
    assert {link.url for link in inserted.links} == {"http://festival.test/index.html",
                                                     "http://festival.test/index_eng.html"}
    assert inserted.url == "http://festival.test/templates/header-main.html"


# The festival's film list (js/views_eng.js): a button written inside a string, its handler's URL built
# by the outer string's concatenation.
FESTIVAL_LIST = ('html += "<button type=\\"button\\" onclick=\\"window.location.replace(\'film_eng.html?movie=" + '
                 'encodeURIComponent(this.ToJSON()) + "\');\\">Read more</button>";')


def test_a_navigation_written_inside_a_string_names_its_page_not_the_outer_code():
    from crawlweb.crawler.scriptlinks import navigation_targets
    found = [link.url for link in navigation_targets(FESTIVAL_LIST, "http://festival.test/filmovi_eng.html")]
    assert found == ["http://festival.test/film_eng.html"]


def _included(html: str, url: str = "http://skola.test/kurs/program.html") -> list[tuple[str, str]]:
    return [(link.url, link.hreflang) for link in parse_html(html, url).links if link.rel == "script-include"]


def test_an_include_attribute_names_its_file_in_each_language_folder_the_pages_buttons_name():
    page = ("""<html><body><a href="" onclick="setCookie('language', 'sr', '365')">sr</a>"""
            """<a href="" onclick="setCookie('language', 'en', '365')">en</a>"""
            """<div w3-include-html="program.html"></div><footer data-include="/meni.html"></footer></body></html>""")
    assert _included(page) == [
        ("http://skola.test/kurs/program.html", ""), ("http://skola.test/kurs/sr/program.html", "sr"),
        ("http://skola.test/kurs/en/program.html", "en"),
        ("http://skola.test/meni.html", ""), ("http://skola.test/kurs/sr/meni.html", "sr"),
        ("http://skola.test/kurs/en/meni.html", "en")]


def test_without_language_codes_an_include_is_its_file_alone_and_never_another_sites():
    page = ("""<html><body><button onclick="openMenu('main', 3)">Menu</button>"""
            """<div w3-include-html="partials/nav.html"></div>"""
            """<div w3-include-html="https://widgets.example.com/box.html"></div></body></html>""")
    assert _included(page, "http://skola.test/") == [("http://skola.test/partials/nav.html", "")]


def test_a_page_with_no_include_attribute_gets_no_include_link():
    assert _included(GYM_SWITCH, "http://gym.test/") == []
