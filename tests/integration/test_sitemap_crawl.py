"""Sitemaps in a crawl of the generated test web over HTTP: robots.txt names an index, the index a
gzip sitemap whose xhtml:link alternates are the site's only hreflang declarations."""
import re

import pytest

from crawlweb.crawler.urls import normalize_url
from crawlweb.models import Crawl, Link
from crawlweb.jobs.crawl_control import start_crawl
from evaluation.models import CandidatePair
from frontier.models import Target

pytestmark = pytest.mark.django_db(transaction=True)


def _site(server, sitemap: str) -> dict:
    return next(s for s in server.web.truth()["sites"] if s["sitemap"] == sitemap)


def _crawl(site: dict, *, budget: int = 60, config: dict | None = None, start: str | None = None) -> Crawl:
    rules = "allow HOST:^(" + "|".join(re.escape(h) for h in site["hosts"]) + ")$"
    crawl = Crawl.objects.create(name="sitemaps", page_budget=budget,
                                 config={"url_rules": rules, **(config or {})})
    start_crawl(crawl, extra_urls=[start or next(iter(site["home_urls"].values()))])
    crawl.refresh_from_db()
    return crawl


@pytest.fixture
def sync_crawls(settings, crawl_settings, through_test_web):
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    return through_test_web


def test_robots_txt_leads_to_the_index_its_gzip_sitemap_and_every_page_it_lists(sync_crawls):
    site = _site(sync_crawls, "robots-index")
    index_url, pages_url = site["sitemap_urls"]
    crawl = _crawl(site)
    served = [entry.url for entry in sync_crawls.requests]
    assert f"http://{site['host']}/robots.txt" in served
    assert served.index(index_url) < served.index(pages_url), "the index first, then the sitemap it names"
    sitemaps = {t.url: t for t in Target.objects.filter(crawl=crawl, url__in=[index_url, pages_url])}
    assert sitemaps[index_url].origin == sitemaps[pages_url].origin == Target.Origin.SITEMAP
    assert "Sitemap: line of robots.txt" in sitemaps[index_url].text_around
    assert sitemaps[pages_url].source_page == sitemaps[index_url].page
    listed = {normalize_url(url) for url in site["pages"]}
    fetched = set(Target.objects.filter(crawl=crawl, state=Target.State.DONE).values_list("url", flat=True))
    assert listed <= fetched, "every page the sitemap lists is fetched"
    assert not Target.objects.filter(crawl=crawl, url=f"http://{site['host']}/sitemap.xml").exists(), \
        "robots.txt named the sitemap: /sitemap.xml is not guessed"


def test_the_sitemaps_alternates_become_hreflang_pairs_traced_to_the_sitemap(sync_crawls):
    site = _site(sync_crawls, "robots-index")
    pages_url = site["sitemap_urls"][1]
    crawl = _crawl(site)
    sitemap_page = Target.objects.get(crawl=crawl, url=pages_url).page
    declared = Link.objects.filter(page=sitemap_page, kind="sitemap-alternate")
    assert declared.filter(hreflang="en").count() == len(site["sitemap_declared_pairs"])
    # The site's pages declare nothing: every hreflang pair comes from the sitemap's alternates.
    assert not Link.objects.filter(page__crawl=crawl, kind="alternate").exists()
    hreflang = {(p.source_url, p.target_url): p for p in CandidatePair.objects.filter(crawl=crawl, method="hreflang")}
    wanted = {(normalize_url(sr), normalize_url(en)) for sr, en in site["sitemap_declared_pairs"]}
    assert wanted <= set(hreflang), "each declared pair is a candidate pair of method hreflang"
    for sr, en in wanted:
        # The evidence names the declaring page; its declaration is a Link row of the sitemap.
        assert hreflang[(sr, en)].evidence in (f"hreflang=en on {sr}", f"hreflang=sr on {en}")
        assert declared.filter(anchor_text__in=[sr, en], target_url__in=[sr, en]).exists()


def test_a_host_without_robots_lines_gets_its_sitemap_xml_tried_once(sync_crawls):
    site = _site(sync_crawls, "root")
    crawl = _crawl(site)
    target = Target.objects.get(crawl=crawl, url=normalize_url(site["sitemap_urls"][0]))
    assert target.state == Target.State.DONE and "tried once per host" in target.text_around
    listed = set(Link.objects.filter(page=target.page, kind="sitemap").values_list("target_url", flat=True))
    assert listed == {normalize_url(url) for url in site["pages"]}
    assert listed <= set(Target.objects.filter(crawl=crawl).values_list("url", flat=True))
    served = [entry.url for entry in sync_crawls.requests]
    assert served.count(site["sitemap_urls"][0]) == 1


def test_a_missing_sitemap_is_recorded_as_none_not_as_a_failure(sync_crawls):
    site = next(s for s in sync_crawls.web.truth()["sites"]
                if s["kind"] == "mono-sr-latn" and s["robots"] == "none" and s["sitemap"] == "none")
    crawl = _crawl(site, budget=20)
    target = Target.objects.get(crawl=crawl, url=normalize_url(f"http://{site['host']}/sitemap.xml"))
    assert (target.state, target.status_code, target.error_kind) == (Target.State.SKIPPED, 404, "no_sitemap")
    assert not Target.objects.filter(crawl=crawl, state=Target.State.FAILED).exists()


def test_the_host_bound_caps_the_targets_a_sitemap_gives(sync_crawls, settings):
    site = _site(sync_crawls, "root")
    counts = {}
    for bound in (4, 2000):
        settings.CRAWLER_SITEMAP_MAX_URLS = bound
        crawl = _crawl(site, budget=2)  # the home page, then its sitemap
        sitemap = Target.objects.get(crawl=crawl, url=normalize_url(site["sitemap_urls"][0]))
        assert Link.objects.filter(page=sitemap.page, kind="sitemap").count() == len(site["pages"])
        counts[bound] = Target.objects.filter(crawl=crawl, origin=Target.Origin.SITEMAP).count()
    # Entries the home page linked first stay its links: the bound counts them, the Targets do not.
    assert counts[4] <= 4 < counts[2000]


def test_a_crawl_with_sitemaps_off_asks_for_none(sync_crawls):
    site = _site(sync_crawls, "robots-index")
    crawl = _crawl(site, config={"sitemaps": False})
    assert not Target.objects.filter(crawl=crawl, origin=Target.Origin.SITEMAP).exists()
    assert not [entry for entry in sync_crawls.requests if "sitemap" in entry.url]
