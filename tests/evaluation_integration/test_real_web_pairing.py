"""Pairing on real sites served over HTTP: a crawl of three sites of shared/data/real-sites.

The sites are served by the project's test web server (real HTTP on 127.0.0.1 through its proxy)
and crawled breadth-first with every follow-up on, as a user's crawl is:
- empire.stojadin2701.gh.test: x.html ↔ x-sr.html, "English"/"Srpski" switch links on every page;
- www.digital-software.tech: index.html ↔ index-sr.html by its switch (the English side is stored
  as /, its first URL), and three Serbian pages no page links to, found only by deep guesses;
- prof-dr-miodrag-acimovic.aleksandarjanjic.gh.test: translated slugs behind <button onclick>
  switches, and Serbian pages that translate only the menu over the English body.
"""
import json
import re

import pytest

from crawlweb.devdata import shared_data_dir
from crawlweb.models import Crawl, Page
from crawlweb.testweb.generator import generate_web
from crawlweb.testweb.server import TestWebServer
from evaluation.models import CandidatePair
from frontier.models import Target
from tests.conftest import route_through
from tests.evaluation_integration.helpers import crawl_with_deep_guesses

pytestmark = pytest.mark.django_db(transaction=True)

REAL = shared_data_dir() / "real-sites"
EMPIRE, SOFTWARE, UROLOG = ("empire.stojadin2701.gh.test", "www.digital-software.tech",
                            "prof-dr-miodrag-acimovic.aleksandarjanjic.gh.test")


@pytest.fixture(scope="module")
def truth():
    if not (REAL / "truth.json").exists():
        pytest.skip(f"the real sites are not here ({REAL}): set SHARED_DATA_DIR to the shared data folder")
    sites = json.loads((REAL / "truth.json").read_text())["sites"]
    return {s["host"]: {frozenset(p) for p in s["parallel_pairs"]} for s in sites}


@pytest.fixture(scope="module")
def real_server(truth):
    server = TestWebServer(generate_web(seed=3, size=8, pages_per_site=2), host="127.0.0.1", port=0,
                           real_sites_dir=REAL)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def crawl(real_server, settings, crawl_settings, empty_queues, monkeypatch):
    from crawlweb.services.network import fetcher_for

    route_through(real_server, monkeypatch)
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    rules = "\n".join(f"allow HOST:^{re.escape(h)}$" for h in (EMPIRE, SOFTWARE, UROLOG))
    crawl = Crawl.objects.create(name="real sites", strategy="bfs", page_budget=300, config={"url_rules": rules})
    crawl_with_deep_guesses(crawl, [f"http://{h}/" for h in (EMPIRE, SOFTWARE, UROLOG)])
    yield crawl
    fetcher_for.cache_clear()


def _as_stored(crawl, url):
    """The URL the crawl stored the page under (/ for /index.html)."""
    target = Target.objects.filter(crawl=crawl, url=url, page__isnull=False).first()
    return target.page.url if target else url


def _kept(crawl, host):
    return {frozenset((p.source_url, p.target_url)): p
            for p in CandidatePair.objects.filter(crawl=crawl, kept=True, source_url__contains=f"//{host}/")}


def test_switch_links_pair_the_pages_and_the_pair_keeps_the_switch_as_evidence(crawl, truth):
    kept = _kept(crawl, EMPIRE)
    expected = {frozenset(_as_stored(crawl, u) for u in pair) for pair in truth[EMPIRE]}
    switched = [p for p in kept.values() if p.method == "switch"]
    assert len(switched) >= 6
    for pair in switched:
        assert frozenset((pair.source_url, pair.target_url)) in expected
        assert "anchor 'English'" in pair.evidence or "anchor 'Srpski'" in pair.evidence
        assert (pair.source_language[:2], pair.target_language[:2]) == ("sr", "en")


def test_orphan_serbian_pages_are_found_by_deep_guesses_and_the_home_by_its_switch(crawl, truth):
    kept = _kept(crawl, SOFTWARE)
    expected = {frozenset(_as_stored(crawl, u) for u in pair) for pair in truth[SOFTWARE]}
    assert set(kept) == expected
    orphans = [p for key, p in kept.items() if any(u.endswith(("products-sr.html", "solutions-sr.html")) for u in key)]
    assert orphans and all("deep" in p.methods for p in orphans)
    home = next(p for key, p in kept.items() if any(u.endswith("index-sr.html") for u in key))
    assert home.method == "switch" and home.target_url == f"http://{SOFTWARE}/"


def test_a_site_whose_serbian_pages_kept_the_english_body_gives_no_kept_pair(crawl):
    assert Page.objects.filter(crawl=crawl, url__contains=UROLOG).count() >= 6
    assert not _kept(crawl, UROLOG)
    rejected = CandidatePair.objects.filter(crawl=crawl, source_url__contains=UROLOG, kept=False)
    for pair in rejected:
        assert pair.reason, "every rejection says why"
