"""A site whose language switch is a form's button is crawled across it and paired.

Modelled on a personal site of the real development web: the English home page's only way to the
Serbian one is ``<form action="index_srb.html"><input type="submit" value="Change language"></form>``,
and the Serbian page's button leads back. Nothing else links the Serbian page. A search form on the
same pages (a text box, GET) must not be sent.
"""
import pytest

from crawlweb.models import Link, Page
from evaluation.models import CandidatePair
from tests.served_site import crawl_of_site, served_site

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "www.ognjen-portfolio.rs"
TEXT = {
    "index.html": ("en", "Change language", "index_srb.html",
                   "I am a software developer from Novi Sad. I build web applications and small games, and I "
                   "write about programming. Below you can find my curriculum vitae and a game to play."),
    "index_srb.html": ("sr", "Promeni jezik", "index.html",
                       "Ja sam programer iz Novog Sada. Pravim veb aplikacije i male igre, i pišem o programiranju. "
                       "Ispod možete naći moju biografiju i igru za igranje."),
}


def _page(name):
    lang, button, other, body = TEXT[name]
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Ognjen Čanković</title></head><body>'
            f'<h1>Ognjen Čanković</h1><ul><li><a href="#about">{"About" if lang == "en" else "O meni"}</a></li>'
            f'<li><form action="{other}"><input type="submit" value="{button}" /></form></li></ul>'
            f'<form action="/search"><input type="text" name="q"><input type="submit" value="Search"></form>'
            f'<section id="about"><p>{body}</p></section></body></html>')


@pytest.fixture(scope="module")
def site_server(tmp_path_factory):
    files = {name: _page(name) for name in TEXT}
    pairs = [[f"http://{HOST}/index_srb.html", f"http://{HOST}/index.html"]]
    with served_site(tmp_path_factory.mktemp("real-sites"), HOST, files, pairs) as server:
        yield server


@pytest.fixture
def crawled(site_server, settings, crawl_settings, empty_queues, monkeypatch):
    with crawl_of_site(site_server, HOST, f"http://{HOST}/index.html", monkeypatch, settings, name="form") as crawl:
        yield crawl


def test_the_form_button_leads_to_the_other_language(crawled):
    urls = set(Page.objects.filter(crawl=crawled, status_code=200).values_list("url", flat=True))
    assert f"http://{HOST}/index_srb.html" in urls
    button = Link.objects.get(page__crawl=crawled, page__url=f"http://{HOST}/index.html",
                              target_url=f"http://{HOST}/index_srb.html")
    assert (button.kind, button.anchor_text) == ("onclick", "Change language")
    assert not any("/search" in url for url in urls), "a form that asks for input is never sent"


def test_the_two_homes_are_paired(crawled):
    kept = {(p.source_url, p.target_url) for p in CandidatePair.objects.filter(crawl=crawled, kept=True)}
    assert kept == {(f"http://{HOST}/index_srb.html", f"http://{HOST}/index.html")}
