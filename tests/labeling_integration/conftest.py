"""A real crawl of the test web's first bilingual site with the judging cases on (judging_cases.py),
made once per module: its candidate pairs are what evaluators judge in these tests. Rows are
committed outside the test transactions and deleted at the end of the module."""
from dataclasses import dataclass

import pytest

from tests.conftest import crawl_outside_tests
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
    truth = case_web.truth()
    site = next(s for s in truth["sites"] if s["host"] == truth["judging_cases"]["site"])
    warc_dir = tmp_path_factory.mktemp("warc")

    def make_crawl():
        from crawlweb.services.network import close_warc_writers

        crawl = crawl_sites([site], budget=80)
        close_warc_writers()  # the judging view reads the finished WARC files
        return crawl

    with crawl_outside_tests(case_web, django_db_blocker, warc_dir, make_crawl) as crawl:
        yield CrawledCases(crawl.pk, truth["judging_cases"], str(warc_dir))
