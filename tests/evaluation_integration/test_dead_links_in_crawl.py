"""Dead-link guesses in a crawl: a menu whose links a script rewrites by language is found and paired.

Modelled on a theatre's site of the development web: its menu links istorija.html and kontakt.html,
which its own script rewrites into istorija_sr.html or istorija_en.html by the visitor's language, so a
crawler reading the HTML finds those links dead (404). The home pages index_sr.html and index_en.html
link each other and index.html. The site's pair shows the units _sr and _en, so each dead link is
guessed in both languages, the guesses are checked and fetched, and the pages are paired.
"""
import pytest

from evaluation.models import CandidatePair, DeepCheck
from frontier.models import Target
from tests.served_site import crawl_of_site, served_site

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "www.pozoriste-lipa.rs"
MENU = {"sr": [("istorija", "Istorija"), ("kontakt", "Kontakt")], "en": [("istorija", "History"), ("kontakt", "Contact")]}
TEXT = {("sr", "index"): "Pozorište Lipa igra od 1994. godine u Novom Sadu, na sceni od 180 mesta.",
        ("en", "index"): "The Lipa theatre has played since 1994 in Novi Sad, on a stage of 180 seats.",
        ("sr", "istorija"): "Pozorište je osnovala glumica Vera Lipić 1994. godine u podrumu stare pekare.",
        ("en", "istorija"): "The actress Vera Lipić founded the theatre in 1994, in the cellar of an old bakery.",
        ("sr", "kontakt"): "Blagajna radi od 10 do 20 časova, telefon 021/456-100.",
        ("en", "kontakt"): "The box office is open from 10 am to 8 pm, phone 021/456-100."}


def _page(lang, slug):
    other = "en" if lang == "sr" else "sr"
    menu = "".join(f'<li><a href="{s}.html">{label}</a></li>' for s, label in MENU[lang])
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>Lipa</title>'
            f'<script src="js/menu.js"></script></head><body><a href="index.html">Lipa</a><ul>{menu}</ul>'
            f'<a href="index_{other}.html">{other.upper()}</a><main><p>{TEXT[(lang, slug)]}</p></main></body></html>')


@pytest.fixture(scope="module")
def site_server(tmp_path_factory):
    files = {f"{slug}_{lang}.html": _page(lang, slug) for lang, slug in TEXT}
    files["index.html"] = ('<html><body><a href="index_sr.html">Srpski</a> <a href="index_en.html">English</a>'
                           "</body></html>")
    files["js/menu.js"] = "$('a').click(function () { location.href = this.href.split('.')[0] + '_' + lang + '.html'; });"
    pairs = [[f"http://{HOST}/{slug}_sr.html", f"http://{HOST}/{slug}_en.html"] for slug in ("index", "istorija", "kontakt")]
    with served_site(tmp_path_factory.mktemp("real-sites"), HOST, files, pairs) as server:
        yield server


@pytest.fixture
def crawled(site_server, settings, crawl_settings, empty_queues, monkeypatch):
    # A plain crawl: it checks the guesses, fetches what they found and passes again itself
    with crawl_of_site(site_server, HOST, f"http://{HOST}/", monkeypatch, settings, name="dead links") as crawl:
        yield crawl


def test_the_dead_menu_links_are_guessed_in_both_languages_and_paired(crawled):
    dead = set(Target.objects.filter(crawl=crawled, state=Target.State.FAILED, status_code=404)
               .values_list("url", flat=True))
    assert {f"http://{HOST}/istorija.html", f"http://{HOST}/kontakt.html"} <= dead
    checked = {c.guessed_url: c.exists for c in DeepCheck.objects.filter(crawl=crawled, page_url__in=dead)}
    assert checked[f"http://{HOST}/istorija_sr.html"] and checked[f"http://{HOST}/kontakt_en.html"]
    kept = {(p.source_url.rsplit("/", 1)[1], p.target_url.rsplit("/", 1)[1])
            for p in CandidatePair.objects.filter(crawl=crawled, kept=True, languages_confirmed=True)}
    assert {("istorija_sr.html", "istorija_en.html"), ("kontakt_sr.html", "kontakt_en.html")} <= kept
