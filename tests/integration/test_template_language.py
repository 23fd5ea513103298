"""A crawl stores each page's language as its body's, under a template in one language on every page.

A Serbian building firm's site, written for this test: every page carries the same English header,
menu, news sidebar and footer (the site was built in English first), the Serbian pages under /sr/,
the English ones under /en/, and one Japanese page under /ja/. Read whole, the Serbian pages looked
English; their body and their address both say Serbian.
"""
import pytest

from crawlweb.models import Page
from frontier.models import SiteVerdict
from tests.served_site import crawl_of_site, served_site

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "www.gradnja-petrovic.rs"
BODIES = {
    "sr/index.html": ("O nama", "Naša firma se bavi izgradnjom stambenih objekata od 1998. godine. Za to vreme smo "
                                "izgradili više od dvesta kuća i stanova širom Srbije."),
    "sr/usluge.html": ("Usluge", "Projektujemo i gradimo porodične kuće, stambene zgrade i poslovne prostore. "
                                 "Brinemo o dozvolama, nadzoru i završnim radovima."),
    "en/index.html": ("About us", "Our company has been building homes since 1998. In that time we have built more "
                                  "than two hundred houses and flats across Serbia."),
    "en/usluge.html": ("Services", "We design and build family houses, apartment buildings and business premises. "
                                   "We take care of the permits, the supervision and the finishing works."),
    "ja/index.html": ("会社概要", "当社は1998年から住宅を建てています。これまでにセルビア各地で二百軒以上の家を建てました。"),
}
TEMPLATE_TOP = (
    "<header><h1>Gradnja Petrović</h1><p>Quality homes, built to last, delivered on time</p></header>"
    "<nav><a href='/en/index.html'>Home</a> <a href='/en/usluge.html'>Our services</a> "
    "<a href='/sr/index.html'>Srpski</a> <a href='/en/index.html'>English</a> <a href='/ja/index.html'>日本語</a> "
    "<a href='{other}'>{other_label}</a></nav>")
TEMPLATE_BOTTOM = (
    "<aside><h3>Latest news</h3><p>We have finished the new residential building in Zemun, and the first "
    "families moved in this spring. Our team will be at the construction fair in March: come and meet us at "
    "our stand, where we will show the plans for our next projects.</p></aside>"
    "<footer><p>We are a construction company from Belgrade that has been building houses since 1998. All "
    "rights reserved. Privacy policy. Follow us on social networks and subscribe to our newsletter to receive "
    "news about our projects.</p></footer>")


def _page(path: str) -> str:
    title, body = BODIES[path]
    other = "/sr/usluge.html" if path.startswith("en/") else "/en/usluge.html"
    top = TEMPLATE_TOP.format(other=other, other_label="Usluge" if path.startswith("en/") else "Services")
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title}</title></head><body>"
            f"{top}<main><h2>{title}</h2><p>{body}</p></main>{TEMPLATE_BOTTOM}</body></html>")


@pytest.fixture(scope="module")
def site_server(tmp_path_factory):
    pairs = [[f"http://{HOST}/sr/index.html", f"http://{HOST}/en/index.html"],
             [f"http://{HOST}/sr/usluge.html", f"http://{HOST}/en/usluge.html"]]
    with served_site(tmp_path_factory.mktemp("real-sites"), HOST, {p: _page(p) for p in BODIES}, pairs) as server:
        yield server


@pytest.fixture
def crawled(site_server, settings, crawl_settings, empty_queues, monkeypatch):
    with crawl_of_site(site_server, HOST, f"http://{HOST}/sr/index.html", monkeypatch, settings, name="template") as crawl:
        yield crawl


def test_each_page_is_stored_in_its_bodys_language(crawled):
    stored = {url.split(HOST + "/", 1)[1]: (language, script) for url, language, script in
              Page.objects.filter(crawl=crawled, url__endswith=".html").values_list("url", "language", "script")}
    assert stored == {"sr/index.html": ("sr", "Latn"), "sr/usluge.html": ("sr", "Latn"),
                      "en/index.html": ("en", "Latn"), "en/usluge.html": ("en", "Latn"),
                      "ja/index.html": ("ja", "Jpan")}


def test_the_site_is_bilingual_by_its_pages_languages(crawled):
    verdict = SiteVerdict.objects.get(crawl=crawled, site__name=HOST.removeprefix("www."))
    assert verdict.bilingual
    assert verdict.evidence["combined"]["page_languages"] == {"sr": 2, "en": 2, "ja": 1}
