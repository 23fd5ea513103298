"""STRAND structure in a crawl: pages keep a tag signature when stored, the filter aligns two of them.

A small Serbian–English site, served through the test web's proxy like the real sites are:
same navigation on every page, /sr/x.html ↔ /en/x.html, and one English page that is another
document (a price table where the Serbian page is prose).  Everything else about that pair looks
right (its links pair by the site's pattern, both languages, similar text length), so only its
structure tells it apart.
"""
import pytest

from crawlweb.crawler.structure import tag_signature
from crawlweb.models import Page
from evaluation.models import CandidatePair
from evaluation.services import scoring
from tests.served_site import crawl_of_site, served_site

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "www.pekara-struktura.rs"
NAV = {"sr": [("index", "Почетна"), ("usluge", "Услуге"), ("cene", "Цене"), ("kontakt", "Контакт")],
       "en": [("index", "Home"), ("usluge", "Services"), ("cene", "Prices"), ("kontakt", "Contact")]}
PROSE = {
    ("sr", "index"): ["Пекара ради сваког дана од шест ујутру до девет увече.",
                      "Хлеб и пецива печемо два пута дневно, а колаче по поруџбини."],
    ("en", "index"): ["The bakery is open every day from six in the morning to nine in the evening.",
                      "We bake bread and pastry twice a day, and cakes to order."],
    ("sr", "usluge"): ["Достављамо пецива школама, вртићима и канцеларијама у граду.",
                       "За прославе правимо торте и сланe тацне по вашој жељи."],
    ("en", "usluge"): ["We deliver pastry to schools, kindergartens and offices in the city.",
                       "For celebrations we make cakes and savoury platters the way you like them."],
    ("sr", "cene"): ["Цене хлеба и пецива нису се мењале од прошле године.",
                     "Бели хлеб кошта осамдесет динара, а интегрални сто двадесет.",
                     "Кифле и перece продајемо на комад, а за веће поруџбине дајемо попуст."],
    ("sr", "kontakt"): ["Позовите нас сваког радног дана или нам пишите у било које доба.",
                        "Налазимо се у центру града, поред главне поште."],
    ("en", "kontakt"): ["Call us on any working day or write to us at any time.",
                        "We are in the city centre, next to the main post office."],
}
PRICE_TABLE = [("White bread", "500 g, baked twice a day", "80"), ("Wholegrain bread", "600 g, with seeds", "120"),
               ("Croissant", "butter, one piece", "60"), ("Pretzel", "salted, one piece", "40"),
               ("Birthday cake", "per kilogram, to order", "2200"), ("Savoury platter", "for ten people", "3500")]


def _page(lang, slug):
    other = "en" if lang == "sr" else "sr"
    nav = "".join(f'<li><a href="/{lang}/{s}.html">{label}</a></li>' for s, label in NAV[lang])
    if (lang, slug) in PROSE:
        title = dict(NAV[lang])[slug]
        body = "".join(f"<p>{text}</p>" for text in PROSE[(lang, slug)])
    else:  # the English "prices" page: another document, a table
        title = "Price list"
        rows = "".join(f"<tr><td>{a}</td><td>{b}</td><td>{c} RSD</td></tr>" for a, b, c in PRICE_TABLE)
        body = f"<table><thead><tr><th>Item</th><th>Note</th><th>Price</th></tr></thead><tbody>{rows}</tbody></table>"
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title></head><body>'
            f'<header><nav><ul>{nav}</ul></nav><a href="/{other}/{slug}.html">{other.upper()}</a></header>'
            f"<main><h1>{title}</h1>{body}</main><footer><p>© Pekara</p></footer></body></html>")


@pytest.fixture(scope="module")
def site_server(tmp_path_factory):
    files = {f"{lang}/{slug}.html": _page(lang, slug) for lang in ("sr", "en") for slug, _ in NAV[lang]}
    files["index.html"] = '<html><body><a href="/sr/index.html">Srpski</a> <a href="/en/index.html">English</a></body></html>'
    pairs = [[f"http://{HOST}/sr/{slug}.html", f"http://{HOST}/en/{slug}.html"] for slug in ("index", "usluge", "kontakt")]
    with served_site(tmp_path_factory.mktemp("real-sites"), HOST, files, pairs) as server:
        yield server


@pytest.fixture
def crawled(site_server, settings, crawl_settings, empty_queues, monkeypatch):
    settings.PAIRS_CHECK_STRUCTURE = True
    with crawl_of_site(site_server, HOST, f"http://{HOST}/", monkeypatch, settings, name="structure") as crawl:
        yield crawl


def _pairs(crawl):
    return {p.source_url.rsplit("/", 1)[1]: p for p in CandidatePair.objects.filter(crawl=crawl)}


def test_every_stored_html_page_keeps_its_tag_signature(crawled):
    pages = Page.objects.filter(crawl=crawled, status_code=200)
    assert pages.count() == 9
    for page in pages:
        assert page.tag_signature.startswith("html ") and " body " in page.tag_signature
    prices = pages.get(url=f"http://{HOST}/en/cene.html")
    assert " table thead tr th " in prices.tag_signature


def test_a_pair_whose_pages_differ_in_structure_is_filtered_with_the_reason(crawled):
    pairs = _pairs(crawled)
    assert set(pairs) == {"index.html", "usluge.html", "cene.html", "kontakt.html"}
    prices = pairs["cene.html"]
    assert prices.languages_confirmed and prices.similarity > 0, "Def. 9 and the languages let it through"
    assert not prices.kept and prices.reason.startswith("structure differs: STRAND dp")
    assert prices.scores["dp"] > 0.5 and prices.scores["structure_checked"]
    for name in ("index.html", "usluge.html", "kontakt.html"):
        assert pairs[name].kept and pairs[name].scores["dp"] < 0.2, name


def test_with_the_setting_off_structure_is_not_checked(crawled, settings):
    settings.PAIRS_CHECK_STRUCTURE = False
    scoring.score_crawl(crawled.pk)
    prices = _pairs(crawled)["cene.html"]
    assert prices.kept and "dp" not in prices.scores


def test_pages_stored_without_a_signature_are_not_judged_on_structure(crawled):
    Page.objects.filter(crawl=crawled, url=f"http://{HOST}/en/cene.html").update(tag_signature="")
    scoring.score_crawl(crawled.pk)
    prices = _pairs(crawled)["cene.html"]
    assert prices.kept and prices.scores["structure_checked"] is False


def test_the_signature_stored_is_the_one_of_the_page_served(crawled, site_server):
    page = Page.objects.get(crawl=crawled, url=f"http://{HOST}/en/usluge.html")
    assert page.tag_signature == tag_signature(_page("en", "usluge"))
