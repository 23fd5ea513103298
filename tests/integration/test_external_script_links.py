"""A site whose other language is named only in its own external script is crawled through that script.

Modelled on two sites of the real development web: a restaurant whose account pages are linked only
from assets/js/sr.js, and a food-delivery site whose restaurant pages are listed only in per-page
scripts. The crawler fetches the site's own scripts (never the libraries beside them), reads their
string literals like an inline script's, and so reaches and pairs the pages: here the switch is a
JavaScript function, so nothing but the script leads to the English side.
"""
import pytest

from crawlweb.models import Link, Page
from crawlweb.services.storing import SCRIPT_DEFERRAL
from evaluation.models import CandidatePair
from frontier.models import Target
from tests.served_site import crawl_of_site, served_site

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "www.restoran-zmaj.rs"
SCRIPTS = ('<script src="assets/vendor/jquery/jquery.min.js"></script>'
           '<script src="assets/js/main.js"></script>')
MAIN_JS = """// the language switch and the menu are built here
const pages = {sr: ["index.html", "jelovnik.html"], en: ["index-en.html", "jelovnik-en.html"]};
function switchLanguage(lang) { window.location.href = lang === "en" ? "index-en.html" : "index.html"; }
document.querySelectorAll(".menu a")[1].href = "jelovnik-en.html";
"""
TEXT = {
    "index.html": ("sr", "Restoran Zmaj", "Kineski restoran u centru Beograda, otvoren svakog dana od podneva do ponoći. "
                                          "Rezervacije primamo telefonom i preko sajta."),
    "jelovnik.html": ("sr", "Jelovnik", "Prolećne rolnice, piletina sa susamom, govedina sa brokolijem i pirinač sa "
                                        "povrćem. Sva jela pripremamo od svežih namirnica."),
    "index-en.html": ("en", "Zmaj Restaurant", "A Chinese restaurant in the centre of Belgrade, open every day from noon "
                                               "to midnight. We take bookings by phone and on the website."),
    "jelovnik-en.html": ("en", "Menu", "Spring rolls, sesame chicken, beef with broccoli and vegetable fried rice. "
                                       "Every dish is made from fresh produce."),
}


def _page(name):
    lang, title, body = TEXT[name]
    menu = ('<a href="index.html">Početna</a> <a href="jelovnik.html">Jelovnik</a>' if lang == "sr" else
            '<a href="index-en.html">Home</a> <a href="jelovnik-en.html">Menu</a>')
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title></head><body>'
            f'<nav class="menu">{menu}</nav><button onclick="switchLanguage(\'{"en" if lang == "sr" else "sr"}\')">'
            f'{"EN" if lang == "sr" else "SR"}</button><h1>{title}</h1><p>{body}</p>{SCRIPTS}</body></html>')


@pytest.fixture(scope="module")
def site_server(tmp_path_factory):
    files = {name: _page(name) for name in TEXT}
    files["assets/js/main.js"] = MAIN_JS
    files["assets/vendor/jquery/jquery.min.js"] = "/*! jQuery */ var jQuery = {};"
    pairs = [[f"http://{HOST}/index.html", f"http://{HOST}/index-en.html"],
             [f"http://{HOST}/jelovnik.html", f"http://{HOST}/jelovnik-en.html"]]
    with served_site(tmp_path_factory.mktemp("real-sites"), HOST, files, pairs) as server:
        yield server


@pytest.fixture
def crawled(site_server, settings, crawl_settings, empty_queues, monkeypatch):
    with crawl_of_site(site_server, HOST, f"http://{HOST}/index.html", monkeypatch, settings, name="scripts") as crawl:
        yield crawl


def test_the_sites_own_script_is_fetched_and_its_pages_reached(crawled):
    urls = set(Page.objects.filter(crawl=crawled, status_code=200).values_list("url", flat=True))
    assert f"http://{HOST}/assets/js/main.js" in urls
    assert {f"http://{HOST}/index-en.html", f"http://{HOST}/jelovnik-en.html"} <= urls
    assert f"http://{HOST}/assets/vendor/jquery/jquery.min.js" not in urls, "libraries are not fetched"
    script = Page.objects.get(crawl=crawled, url=f"http://{HOST}/assets/js/main.js")
    assert script.text == "" and script.content_type.endswith("javascript")
    found = set(Link.objects.filter(page=script, kind="script").values_list("target_url", flat=True))
    # read against the pages the script serves (the site's root), not its own folder
    assert {f"http://{HOST}/index-en.html", f"http://{HOST}/jelovnik-en.html"} <= found


def test_the_pages_reached_through_the_script_are_paired(crawled):
    kept = {(p.source_url.rsplit("/", 1)[1], p.target_url.rsplit("/", 1)[1])
            for p in CandidatePair.objects.filter(crawl=crawled, kept=True)}
    assert kept == {("index.html", "index-en.html"), ("jelovnik.html", "jelovnik-en.html")}


def test_a_script_is_fetched_after_the_pages_linked_beside_it(crawled):
    # most scripts name no page: the one linked from index.html waits behind jelovnik.html, linked there too
    script = Target.objects.get(crawl=crawled, url=f"http://{HOST}/assets/js/main.js")
    page = Target.objects.get(crawl=crawled, url=f"http://{HOST}/jelovnik.html")
    assert script.priority == page.priority - SCRIPT_DEFERRAL
