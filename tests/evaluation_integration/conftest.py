"""One crawl of five test-web sites, made once for the module that reads it (test_scored_crawl.py).

The crawl runs with jobs synchronous and the follow-ups on, exactly as a user's crawl does
(score_site after each step, check_deep_pages after scoring).  Its rows are committed outside
any test transaction, so each (non-transactional) test reads them and rolls its own changes
back; the fixture deletes them at the end of the module.
"""
from dataclasses import dataclass

import pytest
from django.test import override_settings

from tests.conftest import route_through
from tests.evaluation_integration.helpers import crawl_sites, pick_sites

KINDS = [("bilingual-sr-en", "dirs"), ("bilingual-sr-en", "subdomain"), ("bilingual-sr-en", "suffix-dot"),
         ("bilingual-sr-en", "query"), ("sr-cyrl-latn", "dirs")]


@dataclass
class Crawled:
    crawl_id: int
    sites: list
    requests: list  # what the test web served during the crawl


@pytest.fixture(scope="module")
def crawled(django_db_setup, django_db_blocker, test_web_server, tmp_path_factory):
    from crawlweb.models import Crawl, Site
    from crawlweb.services.network import fetcher_for

    mp = pytest.MonkeyPatch()
    route_through(test_web_server, mp)
    test_web_server.clear_log()
    overrides = override_settings(REDIS_URL=None, JOBS_INPROCESS_MODE="sync", CRAWLER_HOST_INTERVAL=0.0,
                                  CRAWLER_READ_TIMEOUT=5.0, CRAWLER_BATCH_SIZE=16, CRAWLER_IDLE_FINISH_SECONDS=3.0,
                                  WARC_DIR=tmp_path_factory.mktemp("warc"))
    overrides.enable()
    try:
        with django_db_blocker.unblock():
            sites_before = set(Site.objects.values_list("pk", flat=True))
            sites = pick_sites(test_web_server.truth(), KINDS)
            crawl = crawl_sites(sites)
        yield Crawled(crawl.pk, sites, test_web_server.requests)
        with django_db_blocker.unblock():
            Crawl.objects.filter(pk=crawl.pk).delete()
            Site.objects.exclude(pk__in=sites_before).delete()
    finally:
        overrides.disable()
        mp.undo()
        fetcher_for.cache_clear()


@pytest.fixture
def sync_jobs(settings, empty_queues, through_test_web, crawl_settings):
    """Jobs run synchronously in the caller, follow-ups included, against the test web."""
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "sync"
    return through_test_web
