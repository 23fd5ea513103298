"""One real crawl of four test-web sites (two bilingual sr–en, one Serbian Cyrillic only, one English
only), jobs synchronous with their follow-ups (pair scoring, site verdicts), as a user's crawl runs;
made once for the module that reads it. Its rows are committed outside the tests' transactions and
deleted at the end; its WARC files go to a temporary folder."""
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.test import override_settings

from tests.conftest import route_through
from tests.evaluation_integration.helpers import crawl_sites, pick_sites

KINDS = [("bilingual-sr-en", "dirs"), ("bilingual-sr-en", "suffix-dot"), ("mono-sr-cyrl", "single"),
         ("mono-en", "single")]


@dataclass
class Crawled:
    crawl_id: int
    sites: list
    warc_dir: Path


@pytest.fixture(scope="module")
def crawled(django_db_setup, django_db_blocker, test_web_server, tmp_path_factory):
    from crawlweb.models import Crawl, Site
    from crawlweb.services.network import close_warc_writers, fetcher_for

    mp = pytest.MonkeyPatch()
    route_through(test_web_server, mp)
    warc_dir = tmp_path_factory.mktemp("warc")
    overrides = override_settings(REDIS_URL=None, JOBS_INPROCESS_MODE="sync", CRAWLER_HOST_INTERVAL=0.0,
                                  CRAWLER_READ_TIMEOUT=5.0, CRAWLER_BATCH_SIZE=16, CRAWLER_IDLE_FINISH_SECONDS=3.0,
                                  WARC_DIR=warc_dir)
    overrides.enable()
    close_warc_writers()  # a writer cached for a reused crawl id would write to another test's folder
    try:
        with django_db_blocker.unblock():
            sites_before = set(Site.objects.values_list("pk", flat=True))
            sites = pick_sites(test_web_server.truth(), KINDS)
            crawl = crawl_sites(sites, budget=80)
        yield Crawled(crawl.pk, sites, warc_dir)
        with django_db_blocker.unblock():
            Crawl.objects.filter(pk=crawl.pk).delete()
            Site.objects.exclude(pk__in=sites_before).delete()
    finally:
        close_warc_writers()
        overrides.disable()
        mp.undo()
        fetcher_for.cache_clear()


@pytest.fixture
def staff_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("staff", password="x", is_staff=True))
    return client
