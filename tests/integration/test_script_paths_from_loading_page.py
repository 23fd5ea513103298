"""A script kept in /js/ that names pages by bare file names names the neighbours of the page running it.

Modelled on a gallery of the real development web (art-gallery.nexmickey): Serbian pages in srb/,
English pages in eng/, and the artwork pages listed only in /js/zajednicki.js as "slika1.html". A
browser reads those names against the page that loads the script (/srb/galerija.html → /srb/slika1.html);
read against the script's own site root they were /slika1.html, which does not exist, and the artworks
were never crawled.
"""
import pytest

from crawlweb.models import Link, Page
from evaluation.models import CandidatePair
from tests.served_site import crawl_of_site, served_site

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "www.galerija-platno.rs"
COMMON_JS = """// the gallery's works: each card opens its page
var works = [{naziv: "Reka", putanja: "slika1.html", putanja_e: "slika1_e.html"},
             {naziv: "Most", putanja: "slika2.html", putanja_e: "slika2_e.html"}];
function otvori(i, jezik) { window.location.href = jezik === "en" ? works[i].putanja_e : works[i].putanja; }
"""
WORKS = {
    "slika1": ("Reka", "Ulje na platnu iz 1998. godine. Slika prikazuje reku u zoru, kada se magla diže sa vode "
                       "i obala se tek nazire.",
               "River", "Oil on canvas from 1998. The painting shows a river at dawn, when the mist rises from the "
                        "water and the bank can barely be seen."),
    "slika2": ("Most", "Akvarel iz 2004. godine. Stari kameni most u predvečerje, sa svetlima grada u daljini i "
                       "ribarima na obali.",
               "Bridge", "A watercolour from 2004. An old stone bridge at dusk, with the lights of the town in the "
                         "distance and fishermen on the bank."),
}


def _page(lang, title, body, switch):
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>'
            f'<script src="../js/common.js"></script></head><body><a href="{switch}">'
            f'{"English" if lang == "sr" else "Srpski"}</a><h1>{title}</h1><p>{body}</p></body></html>')


@pytest.fixture(scope="module")
def site_server(tmp_path_factory):
    files = {"js/common.js": COMMON_JS,
             "index.html": '<!DOCTYPE html><html lang="sr"><head><meta http-equiv="refresh" content="0; url=srb/galerija.html">'
                           '</head><body><a href="srb/galerija.html">Galerija</a></body></html>',
             "srb/galerija.html": _page("sr", "Galerija", "Dela naših umetnika, ulja i akvareli iz poslednjih trideset "
                                                          "godina, izložena u stalnoj postavci.", "../eng/galerija_e.html"),
             "eng/galerija_e.html": _page("en", "Gallery", "Works by our artists, oils and watercolours from the last "
                                                            "thirty years, shown in the permanent exhibition.",
                                          "../srb/galerija.html")}
    for name, (sr_title, sr_body, en_title, en_body) in WORKS.items():
        files[f"srb/{name}.html"] = _page("sr", sr_title, sr_body, f"../eng/{name}_e.html")
        files[f"eng/{name}_e.html"] = _page("en", en_title, en_body, f"../srb/{name}.html")
    pairs = [[f"http://{HOST}/srb/{name}.html", f"http://{HOST}/eng/{name}_e.html"] for name in WORKS]
    with served_site(tmp_path_factory.mktemp("real-sites"), HOST, files, pairs) as server:
        yield server


@pytest.fixture
def crawled(site_server, settings, crawl_settings, empty_queues, monkeypatch):
    with crawl_of_site(site_server, HOST, f"http://{HOST}/", monkeypatch, settings, name="script paths") as crawl:
        yield crawl


def test_the_scripts_file_names_are_read_in_the_folder_of_the_page_that_loads_it(crawled):
    script = Page.objects.get(crawl=crawled, url=f"http://{HOST}/js/common.js")
    found = set(Link.objects.filter(page=script, kind="script").values_list("target_url", flat=True))
    assert f"http://{HOST}/srb/slika1.html" in found, found
    assert f"http://{HOST}/slika1.html" not in found, "not the site root: no page there"


def test_the_works_named_only_in_the_script_are_crawled_and_proposed_as_pairs(crawled):
    fetched = set(Page.objects.filter(crawl=crawled, status_code=200).values_list("url", flat=True))
    assert {f"http://{HOST}/srb/slika1.html", f"http://{HOST}/srb/slika2.html",
            f"http://{HOST}/eng/slika1_e.html", f"http://{HOST}/eng/slika2_e.html"} <= fetched
    # each work's flag links its translation: the pair is proposed (whether three pairs are enough for a
    # URL pattern to keep them is pairing's business, not this test's)
    proposed = {(p.source_url.rsplit("/", 1)[1], p.target_url.rsplit("/", 1)[1])
                for p in CandidatePair.objects.filter(crawl=crawled)}
    assert {("slika1.html", "slika1_e.html"), ("slika2.html", "slika2_e.html")} <= proposed

