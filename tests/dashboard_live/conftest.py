"""One real short crawl of the generated test web, made once for this package of tests: COBFC with the
BS Detector, M01 + M03 and pairing (the demo's configuration), jobs run synchronously, follow-ups on,
so it has verdicts, layers, backlinks, errors and pairs. Its rows are committed outside any test
transaction; the fixture deletes them at the end of the package."""
from __future__ import annotations

import pytest
from django.test import override_settings

from crawlweb.services.demo_crawl import CONFIG
from tests.conftest import route_through

BUDGET = 100


@pytest.fixture(scope="package")
def watched_crawl(django_db_setup, django_db_blocker, test_web_server, tmp_path_factory):
    from crawlweb.models import Crawl, SeedList, Site
    from crawlweb.services.crawl_control import start_crawl
    from crawlweb.services.network import fetcher_for

    mp = pytest.MonkeyPatch()
    route_through(test_web_server, mp)
    overrides = override_settings(REDIS_URL=None, JOBS_INPROCESS_MODE="sync", CRAWLER_HOST_INTERVAL=0.0,
                                  CRAWLER_READ_TIMEOUT=2.0, CRAWLER_BATCH_SIZE=16, CRAWLER_IDLE_FINISH_SECONDS=3.0,
                                  WARC_DIR=tmp_path_factory.mktemp("warc"))
    overrides.enable()
    try:
        with django_db_blocker.unblock():
            sites_before = set(Site.objects.values_list("pk", flat=True))
            truth = test_web_server.web.truth()
            seeds = SeedList.objects.create(name="live panel seeds")
            for site in [s for s in truth["sites"] if s["bilingual_sr_en"]][:3]:
                seeds.seeds.create(url=next(iter(site["home_urls"].values())))
            crawl = Crawl.objects.create(name="watched", seed_list=seeds, strategy=Crawl.Strategy.COBFC,
                                         page_budget=BUDGET, config={**CONFIG, "host_interval": 0})
            start_crawl(crawl)
            crawl.refresh_from_db()
        yield crawl
        with django_db_blocker.unblock():
            Crawl.objects.filter(pk=crawl.pk).delete()
            SeedList.objects.filter(pk=seeds.pk).delete()
            Site.objects.exclude(pk__in=sites_before).delete()
    finally:
        overrides.disable()
        mp.undo()
        fetcher_for.cache_clear()


@pytest.fixture
def staff_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("operator", "op@example.org", "a-long-password-1")
    client.force_login(user)
    return client
