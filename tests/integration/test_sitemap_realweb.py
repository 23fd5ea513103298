"""Sitemaps on the real development web (REAL_WEB_DIR) served over HTTP on loopback: adriacare.me's
robots.txt names its sitemap, whose xhtml:link alternates declare the site's six language versions."""
from __future__ import annotations

import json

import pytest

from crawlweb.crawler.urls import normalize_url
from crawlweb.devdata import real_web_dir
from crawlweb.models import Crawl, Link
from crawlweb.jobs.crawl_control import start_crawl
from crawlweb.testweb.generator import generate_web
from crawlweb.testweb.server import TestWebServer
from evaluation.models import CandidatePair
from frontier.models import Target
from tests.conftest import route_through

REAL_WEB = real_web_dir()
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.skipif(
    not (REAL_WEB / "truth.json").is_file(),
    reason=f"the real development web is not built at {REAL_WEB}: run scripts/build_realweb.py "
           "(set REAL_WEB_DIR to where it is built)")]
HOST = "adriacare.me"


@pytest.fixture(scope="module")
def real_web():
    with TestWebServer(generate_web(seed=2, size=16, pages_per_site=3), real_sites_dir=REAL_WEB) as server:
        yield server


def test_a_real_sites_robots_sitemap_is_read_and_its_alternates_pair_pages(real_web, monkeypatch, settings,
                                                                            crawl_settings):
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    route_through(real_web, monkeypatch)
    truth = json.loads((REAL_WEB / "truth.json").read_text(encoding="utf-8"))
    site = next(s for s in truth["sites"] if s["host"] == HOST)
    crawl = Crawl.objects.create(name="adriacare", page_budget=80,
                                 config={"url_rules": f"allow HOST:^{HOST}$", "address_policy": "public"})
    start_crawl(crawl, extra_urls=[site["home"]])
    crawl.refresh_from_db()
    sitemap = Target.objects.get(crawl=crawl, url=f"http://{HOST}/sitemap.xml")
    assert (sitemap.origin, sitemap.state, sitemap.text_around) == (
        Target.Origin.SITEMAP, Target.State.DONE, "Sitemap: line of robots.txt")
    declared = Link.objects.filter(page=sitemap.page, kind="sitemap-alternate")
    assert declared.filter(hreflang="sr", anchor_text=f"http://{HOST}/en/", target_url=f"http://{HOST}/sr/").exists()
    listed = set(Link.objects.filter(page=sitemap.page, kind="sitemap").values_list("target_url", flat=True))
    fetched = set(Target.objects.filter(crawl=crawl, state=Target.State.DONE).values_list("url", flat=True))
    assert len(listed) == 48 and listed <= fetched, "every page the sitemap lists is fetched"
    # Pairs whose two sides are in their languages (the English impressum and privacy pages are
    # German or mixed); the home pages are stored as the sitemap names them, /sr/ and /en/.
    languages = site["page_languages"]
    wanted = {tuple(normalize_url(u).removesuffix("index.html") for u in (sr, en)) for sr, en in site["parallel_pairs"]
              if languages.get(en) == "en"}
    hreflang = set(CandidatePair.objects.filter(crawl=crawl, method="hreflang").values_list("source_url", "target_url"))
    assert len(wanted) >= 5 and wanted <= hreflang
