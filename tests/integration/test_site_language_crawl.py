"""Stored page languages after a short crawl of the real development web, served on loopback.

The real web (REAL_WEB_DIR, built by scripts/build_realweb.py; else the shared real sites) is served
by the test web server as --real-sites does; the crawl reads three of its sites: a Croatian site
with an English side, a Serbian site whose template says lang="en" on every page, and a small
Serbian–English site. Pairing's scoring settles each site's languages before it pairs the site
(crawlweb.services.site_language), so the stored labels and SiteLanguage rows are checked against
the truth's page_languages.
"""
import json
import re

import pytest

from crawlweb.devdata import real_web_dir, shared_data_dir
from crawlweb.language.page_accuracy import evaluation_label, page_language_scores
from crawlweb.models import Crawl, Page, SiteLanguage
from crawlweb.jobs.crawl_control import start_crawl
from crawlweb.services.site_language import settle_site_languages
from crawlweb.testweb.generator import generate_web
from crawlweb.testweb.server import TestWebServer
from tests.conftest import route_through

pytestmark = pytest.mark.django_db(transaction=True)

CROATIAN_SITE = "slavonian-trading.chainervk.gh.test"
SERBIAN_SITES = ("aleksandar.coapro.gh.test", "mipap.mipap.gh.test")


def _real_web():
    """(directory, {host: truth site}) of the first real web holding the three sites with page labels."""
    for root in (real_web_dir(), shared_data_dir() / "real-sites"):
        truth = root / "truth.json"
        if truth.is_file():
            sites = {s["host"]: s for s in json.loads(truth.read_text(encoding="utf-8"))["sites"]}
            if all(sites.get(h, {}).get("page_languages") for h in (CROATIAN_SITE, *SERBIAN_SITES)):
                return root, sites
    pytest.skip(f"the real development web with page labels for {CROATIAN_SITE} and {', '.join(SERBIAN_SITES)} "
                f"is absent: build it with scripts/build_realweb.py (REAL_WEB_DIR={real_web_dir()})")


@pytest.fixture(scope="module")
def real_web():
    root, sites = _real_web()
    server = TestWebServer(generate_web(seed=3, size=16, pages_per_site=2), host="127.0.0.1", port=0,
                           real_sites_dir=root)
    server.start()
    yield server, sites
    server.stop()


@pytest.fixture
def crawled(real_web, settings, crawl_settings, empty_queues, monkeypatch):
    from crawlweb.services.network import fetcher_for

    server, sites = real_web
    route_through(server, monkeypatch)
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    hosts = (CROATIAN_SITE, *SERBIAN_SITES)
    crawl = Crawl.objects.create(name="site languages", page_budget=60, config={
        "url_rules": "\n".join(f"allow HOST:^{re.escape(h)}$" for h in hosts)})
    start_crawl(crawl, extra_urls=[sites[h].get("home") or f"http://{h}/" for h in hosts])
    yield crawl, sites
    fetcher_for.cache_clear()


def _stored(crawl, host):
    return {p.url: evaluation_label(p.language, p.script)
            for p in Page.objects.filter(crawl=crawl, host__name=host, status_code=200)}


def test_the_croatian_site_is_croatian_and_none_of_its_pages_serbian(crawled):
    crawl, sites = crawled
    stored = _stored(crawl, CROATIAN_SITE)
    assert stored, "the crawl stored pages of the Croatian site"
    assert not [url for url, label in stored.items() if label.startswith("sr")], stored
    assert SiteLanguage.objects.get(crawl=crawl, site__name=CROATIAN_SITE.removeprefix("www.")).variety == "hr"


def test_serbian_pages_under_a_lang_en_template_are_stored_serbian(crawled):
    crawl, sites = crawled
    for host in SERBIAN_SITES:
        stored = _stored(crawl, host)
        truth = sites[host]["page_languages"]
        serbian = [url for url in stored if truth.get(url) == "sr-Latn"]
        assert serbian, f"the crawl stored Serbian pages of {host}"
        assert all(stored[url] == "sr-Latn" for url in serbian), {u: stored[u] for u in serbian}
        assert SiteLanguage.objects.get(crawl=crawl, site__name=host).variety == "sr"


def test_stored_languages_meet_the_figures_on_these_sites(crawled):
    crawl, sites = crawled
    stored, truth = {}, {}
    for host in (CROATIAN_SITE, *SERBIAN_SITES):
        stored.update(_stored(crawl, host))
        truth.update(sites[host]["page_languages"])
    scores = page_language_scores(stored, truth)
    assert scores["bcms_pages"] >= 5
    assert scores["lid_sr_vs_hbs"] == 1.0, scores["confusion"]


def test_every_page_keeps_its_own_evidence_and_settling_again_changes_nothing(crawled):
    crawl, _sites = crawled
    page = Page.objects.filter(crawl=crawl, status_code=200, language="sr").first()
    assert page.language_evidence["lang"] and "declared" in page.language_evidence
    before = list(Page.objects.filter(crawl=crawl).order_by("pk").values_list("language", "script"))
    row = SiteLanguage.objects.get(crawl=crawl, site=page.site)
    settle_site_languages(crawl.pk, page.site_id)
    assert list(Page.objects.filter(crawl=crawl).order_by("pk").values_list("language", "script")) == before
    assert SiteLanguage.objects.filter(crawl=crawl, site=page.site).count() == 1
    assert SiteLanguage.objects.get(pk=row.pk).variety == row.variety

