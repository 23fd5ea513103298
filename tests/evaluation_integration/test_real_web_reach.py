"""Pages a real site links only through another link's query or a script, crawled over HTTP.

www.sft21.com of the real development web (REAL_WEB_DIR, built by scripts/build_realweb.py) is served
by the test web server as --real-sites does and crawled breadth-first with scoring on: its service
pages are linked only as ``login_en.html?redirect=sfured_en.html`` (crawler.paramlinks), its card pages
only from a script's template literal `` `prva_kartica_en.html${queryParams}` `` (crawler.scriptlinks).
The crawl must store them, say how it found them (Link kind), and pair them with their Serbian pages.
"""
import json
import re

import pytest

from crawlweb.devdata import real_web_dir
from crawlweb.models import Crawl, Link, Page
from crawlweb.jobs.crawl_control import start_crawl
from crawlweb.testweb.generator import generate_web
from crawlweb.testweb.server import TestWebServer
from evaluation.models import CandidatePair
from evaluation.services import scoring
from tests.conftest import route_through

pytestmark = pytest.mark.django_db(transaction=True)

SFT21 = "www.sft21.com"


@pytest.fixture(scope="module")
def real_web():
    root = real_web_dir()
    truth = root / "truth.json"
    sites = {s["host"]: s for s in json.loads(truth.read_text(encoding="utf-8"))["sites"]} if truth.is_file() else {}
    if SFT21 not in sites:
        pytest.skip(f"the real development web with {SFT21} is absent: build it with scripts/build_realweb.py "
                    f"(REAL_WEB_DIR={root})")
    server = TestWebServer(generate_web(seed=3, size=8, pages_per_site=2), host="127.0.0.1", port=0,
                           real_sites_dir=root)
    server.start()
    yield server, sites[SFT21]
    server.stop()


@pytest.fixture
def crawled(real_web, settings, crawl_settings, empty_queues, monkeypatch):
    from crawlweb.services.network import fetcher_for

    server, site = real_web
    route_through(server, monkeypatch)
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    crawl = Crawl.objects.create(name="sft21", strategy="bfs", page_budget=150,
                                 config={"url_rules": f"allow HOST:^{re.escape(SFT21)}$"})
    start_crawl(crawl, extra_urls=[f"http://{SFT21}/index_en.html", f"http://{SFT21}/index_sr.html"])
    scoring.score_crawl(crawl.pk)
    yield crawl, site
    fetcher_for.cache_clear()


def test_pages_named_only_in_a_query_or_a_script_are_crawled_said_how_and_paired(crawled):
    # One crawl for the three checks: each crawl of the site takes ~20 s, and each check reads its result only.
    crawl, site = crawled
    stored = set(Page.objects.filter(crawl=crawl).values_list("url", flat=True))
    _pages_named_only_in_a_login_redirect_are_crawled_as_param_links(crawl, stored)
    _pages_a_script_opens_with_a_query_are_crawled_without_it(stored)
    _the_pages_found_so_are_paired_with_their_serbian_pages(crawl, site)


def _pages_named_only_in_a_login_redirect_are_crawled_as_param_links(crawl, stored):
    for page in ("sfured_en.html", "sfalgoritam_en.html", "sfured_sr.html", "sfalgoritam_sr.html"):
        assert f"http://{SFT21}/{page}" in stored, page
    carried = Link.objects.filter(page__crawl=crawl, kind="param", target_url=f"http://{SFT21}/sfalgoritam_en.html")
    assert carried.exists(), "the link says it was read from a query"
    page = carried.first().page  # the page that carries it links the login page with the redirect
    assert Link.objects.filter(page=page, kind="a", target_url__contains="redirect=sfalgoritam_en.html").exists()


def _pages_a_script_opens_with_a_query_are_crawled_without_it(stored):
    assert f"http://{SFT21}/prva_kartica_en.html" in stored and f"http://{SFT21}/userdata_en.html" in stored
    assert not [u for u in stored if "guardian=" in u], "one page, not one per guardian code"


def _the_pages_found_so_are_paired_with_their_serbian_pages(crawl, site):
    kept = {frozenset((p.source_url, p.target_url)) for p in CandidatePair.objects.filter(crawl=crawl, kept=True)}
    truth = {frozenset(pair) for pair in site["parallel_pairs"]}
    for name in ("sfured", "sfalgoritam"):
        pair = frozenset((f"http://{SFT21}/{name}_sr.html", f"http://{SFT21}/{name}_en.html"))
        assert pair in truth and pair in kept, name
