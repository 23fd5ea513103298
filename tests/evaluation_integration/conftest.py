"""One crawl of five test-web sites, made once for the module that reads it (test_scored_crawl.py).

The crawl runs with jobs synchronous and the follow-ups on, exactly as a user's crawl does
(score_site after each step, check_deep_pages after scoring).  Its rows are committed outside
any test transaction, so each (non-transactional) test reads them and rolls its own changes
back; the fixture deletes them at the end of the module.
"""
from dataclasses import dataclass

import pytest

from tests.conftest import crawl_outside_tests
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
    sites = pick_sites(test_web_server.truth(), KINDS)

    def make_crawl():
        test_web_server.clear_log()
        return crawl_sites(sites)

    with crawl_outside_tests(test_web_server, django_db_blocker, tmp_path_factory.mktemp("warc"), make_crawl) as crawl:
        yield Crawled(crawl.pk, sites, test_web_server.requests)


@pytest.fixture
def sync_jobs(settings, empty_queues, through_test_web, crawl_settings):
    """Jobs run synchronously in the caller, follow-ups included, against the test web."""
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "sync"
    return through_test_web
