"""A site whose language switch is in a fragment its script loads, and whose menu buttons pass pages to a
function: both are crawled as a browser would reach them.

Modelled on two sites of the real development web's dev-train: a film festival (iffvdprojekat) whose
header with the English flag is templates/header-main.html, loaded by js/config.js into each page at the
root (its link index_eng.html is the root's /index_eng.html, not /templates/index_eng.html); and a gym
(x-gym) whose language and menu buttons are ``onmousedown="changeLanguage(1, 'index_eng.html')"``.
"""
import pytest

from crawlweb.models import Link, Page
from tests.served_site import crawl_of_site, served_site

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "www.festival-ekran.rs"
CONFIG_JS = """$(document).ready(function() {
    $("header#top").load("templates/header.html");
});"""
HEADER = """<div class="row"><a href="index.html"><img src="res/logo.png" alt="IFF"></a>
<a href="index_eng.html"><img src="res/english.png" alt="English"></a></div>"""
HEADER_EN = """<div class="row"><a href="index_eng.html"><img src="res/logo.png" alt="IFF"></a>
<a href="index.html"><img src="res/serbian.png" alt="Srpski"></a></div>"""
TEXTS = {
    "index": ("sr", "Dobrodošli na festival", "Festival dokumentarnog filma održava se svakog juna u Beogradu, "
                                              "sa projekcijama u pet bioskopa i razgovorima sa autorima."),
    "index_eng": ("en", "Welcome to the festival", "The documentary film festival is held every June in "
                                                   "Belgrade, with screenings in five cinemas and talks with the authors."),
    "program": ("sr", "Program", "Program festivala objavljuje se mesec dana pre otvaranja, a karte se prodaju "
                                 "na blagajnama bioskopa i na internetu."),
    "program_eng": ("en", "Programme", "The festival programme is published a month before the opening, and "
                                       "tickets are sold at the cinema box offices and online."),
}


def _page(name: str) -> str:
    lang, title, body = TEXTS[name]
    english = name.endswith("_eng")
    config = "js/config_eng.js" if english else "js/config.js"
    other = "program_eng.html" if not english else "program.html"
    menu = (f'<button onmousedown="promeni_stranicu(\'{name}.html\', \'{other}\')">'
            f'{"Programme" if english else "Program"}</button>')
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>'
            f'<script src="https://code.jquery.com/jquery.min.js"></script><script src="{config}"></script></head>'
            f'<body><header id="top"></header>{menu if name.startswith("index") else ""}'
            f'<h1>{title}</h1><p>{body}</p></body></html>')


@pytest.fixture(scope="module")
def site_server(tmp_path_factory):
    files = {f"{name}.html": _page(name) for name in TEXTS}
    files.update({"js/config.js": CONFIG_JS, "js/config_eng.js": CONFIG_JS.replace("header.html", "header_eng.html"),
                  "templates/header.html": HEADER, "templates/header_eng.html": HEADER_EN})
    pairs = [[f"http://{HOST}/{name}.html", f"http://{HOST}/{name}_eng.html"] for name in ("index", "program")]
    with served_site(tmp_path_factory.mktemp("real-sites"), HOST, files, pairs) as server:
        yield server


@pytest.fixture
def crawled(site_server, settings, crawl_settings, empty_queues, monkeypatch):
    with crawl_of_site(site_server, HOST, f"http://{HOST}/index.html", monkeypatch, settings,
                       name="fragments and handlers") as crawl:
        yield crawl


def test_the_fragments_switch_is_read_against_the_page_that_loads_it(crawled):
    header = Page.objects.get(crawl=crawled, url=f"http://{HOST}/templates/header.html")
    found = set(Link.objects.filter(page=header).values_list("target_url", flat=True))
    assert f"http://{HOST}/index_eng.html" in found, found
    assert f"http://{HOST}/templates/index_eng.html" not in found


def test_the_english_side_and_the_pages_behind_handler_buttons_are_crawled(crawled):
    fetched = set(Page.objects.filter(crawl=crawled, status_code=200).values_list("url", flat=True))
    assert {f"http://{HOST}/index_eng.html", f"http://{HOST}/program.html", f"http://{HOST}/program_eng.html"} <= fetched
    handler = Link.objects.filter(page__crawl=crawled, page__url=f"http://{HOST}/index.html", kind="onclick")
    assert f"http://{HOST}/program_eng.html" in set(handler.values_list("target_url", flat=True))
