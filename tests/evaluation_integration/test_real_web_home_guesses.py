"""Sites that show one language of the pair: their home page gets the conventional deep guesses.

Served from the real development web (REAL_WEB_DIR) over HTTP on loopback and crawled
breadth-first with every follow-up on:
- nsd-electronic.lukakljajevic.gh.test: Serbian at the root, English under /en/; the switch is
  built by an external script (scripts/partials.js), so no link leads to /en/;
- mihajlo.github.io.mihajlominic.gh.test: an English index.html and an index-sr.html no page links;
- nexory.ognjens16.gh.test: Serbian only (a negative: its guesses find nothing).
"""
from __future__ import annotations

import re

import pytest

from crawlweb.devdata import real_web_dir
from crawlweb.models import Crawl, Page
from crawlweb.testweb.generator import generate_web
from crawlweb.testweb.server import TestWebServer
from evaluation.models import CandidatePair, DeepCheck
from frontier.models import Target
from tests.conftest import route_through
from tests.evaluation_integration.helpers import crawl_with_deep_guesses

REAL_WEB = real_web_dir()
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.skipif(
    not (REAL_WEB / "truth.json").is_file(),
    reason=f"the real development web is not built at {REAL_WEB}: run scripts/build_realweb.py "
           "(set REAL_WEB_DIR to where it is built)")]
NSD, MIHAJLO, NEXORY = ("nsd-electronic.lukakljajevic.gh.test", "mihajlo.github.io.mihajlominic.gh.test",
                        "nexory.ognjens16.gh.test")


@pytest.fixture(scope="module")
def real_web():
    with TestWebServer(generate_web(seed=2, size=8, pages_per_site=2), real_sites_dir=REAL_WEB) as server:
        yield server


@pytest.fixture
def crawl_site(real_web, monkeypatch, settings, crawl_settings, empty_queues):
    """Crawls one site alone: its *.gh.test neighbours would form one pairing group with it."""
    from crawlweb.services.network import fetcher_for

    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    route_through(real_web, monkeypatch)

    def crawl_site(host: str) -> Crawl:
        crawl = Crawl.objects.create(name=host, strategy="bfs", page_budget=60,
                                     config={"url_rules": f"allow HOST:^{re.escape(host)}$", "host_interval": 0})
        crawl_with_deep_guesses(crawl, [f"http://{host}/"])
        return crawl

    yield crawl_site
    fetcher_for.cache_clear()


def _kept(crawl, host):
    """{(frozenset of the two URLs, method)} of the kept pairs with a side on the host."""
    return {(frozenset((source, target)), method) for source, target, method in CandidatePair.objects.filter(
        crawl=crawl, kept=True, source_url__contains=f"//{host}/").values_list("source_url", "target_url", "method")}


def test_a_serbian_home_whose_english_side_no_link_reaches_is_paired_by_a_home_guess(crawl_site):
    crawl = crawl_site(NSD)
    english = Target.objects.get(crawl=crawl, url=f"http://{NSD}/en/")
    assert english.origin == Target.Origin.DEEP_GUESS, "only the home page's guess leads to the English side"
    assert english.page.language == "en"
    assert frozenset((f"http://{NSD}/", f"http://{NSD}/en/")) in {urls for urls, _ in _kept(crawl, NSD)}
    # Once the site shows both languages, its other pages are reached and proposed as pairs:
    # /en/o-nama.html (linked from /en/, or guessed from /o-nama.html when the site was scored
    # before the link was followed) is fetched and proposed with /o-nama.html.
    assert CandidatePair.objects.filter(crawl=crawl, source_url=f"http://{NSD}/o-nama.html",
                                        target_url=f"http://{NSD}/en/o-nama.html").exists()


def test_an_english_home_with_an_unlinked_serbian_twin_is_paired(crawl_site):
    crawl = crawl_site(MIHAJLO)
    serbian = Target.objects.get(crawl=crawl, url=f"http://{MIHAJLO}/index-sr.html")
    assert serbian.origin == Target.Origin.DEEP_GUESS and serbian.page.language == "sr"
    assert frozenset((f"http://{MIHAJLO}/", f"http://{MIHAJLO}/index-sr.html")) in {
        urls for urls, _ in _kept(crawl, MIHAJLO)}


def test_a_serbian_only_site_gets_no_pair_from_its_home_guesses(crawl_site):
    crawl = crawl_site(NEXORY)
    checks = DeepCheck.objects.filter(crawl=crawl, guessed_url__contains=f"//{NEXORY}/")
    assert checks.count() <= 6, "at most a handful of HEAD requests on its home, not five per page"
    assert not Page.objects.filter(crawl=crawl, url__contains=f"//{NEXORY}/", language="en").exists()
    assert _kept(crawl, NEXORY) == set()
