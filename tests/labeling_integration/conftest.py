"""A real crawl of the test web's first bilingual site with the judging cases on (judging_cases.py),
made once per module: its candidate pairs are what evaluators judge in these tests. Rows are
committed outside the test transactions and deleted at the end of the module."""
from dataclasses import dataclass

import pytest
from django.test import override_settings

from tests.conftest import route_through
from tests.evaluation_integration.helpers import crawl_sites


@dataclass
class CrawledCases:
    crawl_id: int
    truth: dict  # the test web's truth["judging_cases"]
    warc_dir: str


@pytest.fixture(scope="module")
def case_web():
    from crawlweb.testweb.generator import generate_web
    from crawlweb.testweb.server import TestWebServer

    server = TestWebServer(generate_web(seed=3, size=20, pages_per_site=6, judging_cases=True),
                           host="127.0.0.1", port=0)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def crawled_cases(django_db_setup, django_db_blocker, case_web, tmp_path_factory):
    from crawlweb.models import Crawl, Site
    from crawlweb.services.network import close_warc_writers, fetcher_for

    mp = pytest.MonkeyPatch()
    route_through(case_web, mp)
    warc_dir = tmp_path_factory.mktemp("warc")
    overrides = override_settings(REDIS_URL=None, JOBS_INPROCESS_MODE="sync", CRAWLER_HOST_INTERVAL=0.0,
                                  CRAWLER_READ_TIMEOUT=5.0, CRAWLER_BATCH_SIZE=16, CRAWLER_IDLE_FINISH_SECONDS=3.0,
                                  WARC_DIR=warc_dir)
    overrides.enable()
    try:
        truth = case_web.truth()
        site = next(s for s in truth["sites"] if s["host"] == truth["judging_cases"]["site"])
        with django_db_blocker.unblock():
            sites_before = set(Site.objects.values_list("pk", flat=True))
            crawl = crawl_sites([site], budget=80)
            close_warc_writers()
        yield CrawledCases(crawl.pk, truth["judging_cases"], str(warc_dir))
        with django_db_blocker.unblock():
            Crawl.objects.filter(pk=crawl.pk).delete()
            Site.objects.exclude(pk__in=sites_before).delete()
    finally:
        overrides.disable()
        mp.undo()
        fetcher_for.cache_clear()
