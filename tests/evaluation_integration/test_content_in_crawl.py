"""Method "content" in a crawl: a site whose URLs pair nothing gets its pairs from what the pages say.

Modelled on a real Belgrade hotel's site of the development web: Serbian pages under /sr/ and English
ones under /en/ with translated slugs (/sr/sobe.html, /en/rooms.html), a language switch that only
leads to the other home page, no hreflang.  The URL methods pair the two homes; the rest is left to
the content method, and a Serbian news page with no English version must stay unpaired.
"""
import pytest

from evaluation.models import CandidatePair
from evaluation.services import scoring
from tests.served_site import crawl_of_site, served_site

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "www.hotel-konstantin.rs"
NAV = {"sr": [("index", "Početna"), ("sobe", "Sobe"), ("restoran", "Restoran"), ("kontakt", "Kontakt"),
              ("vesti", "Vesti")],
       "en": [("index", "Home"), ("rooms", "Rooms"), ("restaurant", "Restaurant"), ("contact", "Contact")]}
BODIES = {
    ("sr", "index"): ["Hotel Konstantin nalazi se u Kralja Milana 12, na 5 minuta od Knez Mihailove.",
                      "Dočekujemo goste od 2009. godine."],
    ("en", "index"): ["Hotel Konstantin stands at Kralja Milana 12, 5 minutes from Knez Mihailova.",
                      "We have welcomed guests since 2009."],
    ("sr", "sobe"): ["Hotel ima 24 sobe i 3 apartmana sa pogledom na Kalemegdan.",
                     "Dvokrevetna soba košta 85 evra, apartman 140 evra, sa doručkom."],
    ("en", "rooms"): ["The hotel has 24 rooms and 3 suites overlooking Kalemegdan.",
                      "A double room costs 85 euros, a suite 140 euros, breakfast included."],
    ("sr", "restoran"): ["Šef kuhinje Marko Petrović sprema jela srpske i mediteranske kuhinje.",
                         "Restoran je otvoren od 7 do 23 časa, a terasa od maja do oktobra."],
    ("en", "restaurant"): ["Our chef Marko Petrović cooks Serbian and Mediterranean dishes.",
                           "The restaurant is open from 7 to 23, the terrace from May to October."],
    ("sr", "kontakt"): ["Recepcija radi od 0 do 24 časa, svakog dana u godini.",
                        "Pišite nam na adresu rezervacije, odgovaramo za 2 sata."],
    ("en", "contact"): ["The reception is open from 0 to 24 hours, every day of the year.",
                        "Write to our bookings address, we answer within 2 hours."],
    ("sr", "vesti"): ["U decembru 2024. otvaramo novu salu za 60 gostiju u Njegoševoj ulici.",
                      "Sala će primati proslave, seminare i poslovne večere."],
}
TRANSLATIONS = [("sobe", "rooms"), ("restoran", "restaurant"), ("kontakt", "contact")]


def _page(lang, slug):
    other = "en" if lang == "sr" else "sr"
    nav = "".join(f'<li><a href="/{lang}/{s}.html">{label}</a></li>' for s, label in NAV[lang])
    title = dict(NAV[lang])[slug]
    body = "".join(f"<p>{text}</p>" for text in BODIES[(lang, slug)])
    flag = "🇬🇧" if lang == "sr" else "🇷🇸"
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title></head><body>'
            f'<header><nav><ul>{nav}</ul></nav><a href="/{other}/index.html">{flag}</a></header>'
            f"<main><h1>{title}</h1>{body}</main>"
            f"<footer><p>Hotel Konstantin, Kralja Milana 12, Beograd</p><p>+381 11 3345 678</p></footer></body></html>")


@pytest.fixture(scope="module")
def site_server(tmp_path_factory):
    files = {f"{lang}/{slug}.html": _page(lang, slug) for lang, slug in BODIES}
    files["index.html"] = ('<html><head><meta http-equiv="refresh" content="0; url=/sr/index.html"></head>'
                           '<body><a href="/sr/index.html">Hotel Konstantin</a></body></html>')
    pairs = [[f"http://{HOST}/sr/{sr}.html", f"http://{HOST}/en/{en}.html"] for sr, en in TRANSLATIONS]
    with served_site(tmp_path_factory.mktemp("real-sites"), HOST, files, pairs) as server:
        yield server


@pytest.fixture
def crawled(site_server, settings, crawl_settings, empty_queues, monkeypatch):
    with crawl_of_site(site_server, HOST, f"http://{HOST}/", monkeypatch, settings, name="content") as crawl:
        yield crawl


def _kept(crawl) -> dict[tuple[str, str], CandidatePair]:
    return {(p.source_url.rsplit("/", 1)[1], p.target_url.rsplit("/", 1)[1]): p
            for p in CandidatePair.objects.filter(crawl=crawl, kept=True)}


def test_pages_with_translated_slugs_are_paired_by_their_content(crawled):
    kept = _kept(crawled)
    for sr, en in TRANSLATIONS:
        pair = kept[(f"{sr}.html", f"{en}.html")]
        assert pair.method == "content" and pair.languages_confirmed
        assert pair.evidence.startswith("content ")
    assert not [key for key in kept if key[0] == "vesti.html"], "the news page has no English version"
    assert ("index.html", "index.html") in kept, "the homes are paired by the switch, not by content"
    assert kept[("index.html", "index.html")].method != "content"


def test_with_the_setting_off_those_pages_stay_unpaired(crawled, settings):
    settings.PAIRS_CONTENT_PAIRING = False
    scoring.score_crawl(crawled.pk)
    assert not CandidatePair.objects.filter(crawl=crawled, method="content").exists()
    assert set(_kept(crawled)) == {("index.html", "index.html")}


def test_scoring_again_keeps_the_same_content_pairs(crawled):
    before = {(p.pk, p.source_url, p.target_url, p.kept, p.score) for p in
              CandidatePair.objects.filter(crawl=crawled, method="content")}
    scoring.score_crawl(crawled.pk)
    after = {(p.pk, p.source_url, p.target_url, p.kept, p.score) for p in
             CandidatePair.objects.filter(crawl=crawled, method="content")}
    assert len(before) == 3 and after == before
