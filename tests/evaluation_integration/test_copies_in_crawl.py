"""The copies rule in a crawl: a site whose Serbian pages are copies of its Serbian home keeps one pair.

Modelled on a site the independent probe of issue 31 met: /sr/about, /sr/careers and /sr/gallery
are copies of /sr/ (the same text, another title), the English pages are four pages of their own,
and every page's switch leads to the same slug in the other language. The switch pairs each Serbian
copy with a distinct English page; only the home pair is a translation.
"""
import pytest

from evaluation.models import CandidatePair
from evaluation.services import scoring
from tests.served_site import crawl_of_site, served_site

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "www.studio-lipa.rs"
SLUGS = ("index", "about", "careers", "gallery")
LABELS = {"sr": ("Početna", "O nama", "Karijera", "Galerija"), "en": ("Home", "About", "Careers", "Gallery")}
HOME_SR = ["Studio Lipa projektuje i izvodi enterijere od 2011. godine, u Novom Sadu i Beogradu.",
           "Naš tim čine četiri arhitekte i stolar, a svaki projekat vodimo od skice do poslednjeg šarafa.",
           "Pozovite nas na 021/555-010 i dogovorite besplatan obilazak prostora."]
EN = {"index": ["Studio Lipa designs and builds interiors since 2011, in Novi Sad and Belgrade.",
                "Our team is four architects and a carpenter, and we lead every project from sketch to the last screw.",
                "Call us at 021/555-010 to arrange a free visit of your space."],
      "about": ["We started in a garage in Petrovaradin with two tables and a saw.",
                "Today we work for families, offices and two of the city's theatres."],
      "careers": ["We are hiring an interior designer with three years of practice.",
                  "Send your portfolio and a few lines about a project you are proud of."],
      "gallery": ["Kitchens, living rooms and offices we designed and built.",
                  "Each picture names the year and the wood we used."]}


def _page(lang, slug):
    other = "en" if lang == "sr" else "sr"
    nav = "".join(f'<li><a href="/{lang}/{s}.html">{label}</a></li>' for s, label in zip(SLUGS, LABELS[lang]))
    body = "".join(f"<p>{text}</p>" for text in (HOME_SR if lang == "sr" else EN[slug]))
    title = dict(zip(SLUGS, LABELS[lang]))[slug]  # the copies differ in their title only: not in the text
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{title} | Lipa</title></head>'
            f'<body><header><nav><ul>{nav}</ul></nav><a href="/{other}/{slug}.html">{other.upper()}</a></header>'
            f"<main>{body}</main><footer><p>Studio Lipa, Novi Sad</p></footer></body></html>")


@pytest.fixture(scope="module")
def site_server(tmp_path_factory):
    files = {f"{lang}/{slug}.html": _page(lang, slug) for lang in ("sr", "en") for slug in SLUGS}
    files["index.html"] = '<html><body><a href="/sr/index.html">Studio Lipa</a></body></html>'
    pairs = [[f"http://{HOST}/sr/index.html", f"http://{HOST}/en/index.html"]]
    with served_site(tmp_path_factory.mktemp("real-sites"), HOST, files, pairs) as server:
        yield server


@pytest.fixture
def crawled(site_server, settings, crawl_settings, empty_queues, monkeypatch):
    with crawl_of_site(site_server, HOST, f"http://{HOST}/", monkeypatch, settings, name="copies") as crawl:
        yield crawl


def _pairs(crawl) -> dict[tuple[str, str], CandidatePair]:
    return {(p.source_url.rsplit("/", 1)[1], p.target_url.rsplit("/", 1)[1]): p
            for p in CandidatePair.objects.filter(crawl=crawl, languages_confirmed=True)}


def test_copies_of_the_home_keep_only_the_home_pair(crawled):
    pairs = _pairs(crawled)
    assert {key for key, p in pairs.items() if p.kept} == {("index.html", "index.html")}
    for slug in SLUGS[1:]:
        removed = pairs[(f"{slug}.html", f"{slug}.html")]
        assert removed.reason.startswith(f"copies: http://{HOST}/sr/{slug}.html is a copy of ")
        assert removed.scores["copies"] is True and removed.scores["filter_kept"] is False


def test_without_the_rule_the_copies_are_kept_as_pairs(crawled, settings):
    settings.PAIRS_COPIES_RULE = False
    scoring.score_crawl(crawled.pk)
    assert {key for key, p in _pairs(crawled).items() if p.kept} == {(f"{s}.html", f"{s}.html") for s in SLUGS}
