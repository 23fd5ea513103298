"""One real short crawl of the generated test web, made once for this package of tests: COBFC with the
BS Detector, M01 + M03 and pairing (the demo's configuration), jobs run synchronously, follow-ups on,
so it has verdicts, layers, backlinks, errors and pairs. Its rows are committed outside any test
transaction and deleted at the end of the package."""
from __future__ import annotations

import pytest
from console.demo_crawl import CONFIG
from tests.conftest import crawl_outside_tests

BUDGET = 100


@pytest.fixture(scope="package")
def watched_crawl(django_db_setup, django_db_blocker, test_web_server, tmp_path_factory):
    def make_crawl():
        from crawlweb.models import Crawl, SeedList
        from crawlweb.jobs.crawl_control import start_crawl

        seeds = SeedList.objects.create(name="live panel seeds")
        for site in [s for s in test_web_server.web.truth()["sites"] if s["bilingual_sr_en"]][:3]:
            seeds.seeds.create(url=next(iter(site["home_urls"].values())))
        crawl = Crawl.objects.create(name="watched", seed_list=seeds, strategy=Crawl.Strategy.COBFC,
                                     page_budget=BUDGET, config={**CONFIG, "host_interval": 0})
        start_crawl(crawl)
        crawl.refresh_from_db()
        return crawl

    with crawl_outside_tests(test_web_server, django_db_blocker, tmp_path_factory.mktemp("warc"), make_crawl,
                             read_timeout=2.0) as crawl:
        yield crawl


@pytest.fixture
def staff_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("operator", "op@example.org", "a-long-password-1")
    client.force_login(user)
    return client
