"""One real crawl of four test-web sites (two bilingual sr–en, one Serbian Cyrillic only, one English
only), jobs synchronous with their follow-ups (pair scoring, site verdicts), as a user's crawl runs;
made once for the module that reads it. Its rows are committed outside the tests' transactions and
deleted at the end; its WARC files go to a temporary folder."""
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import crawl_outside_tests
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
    sites = pick_sites(test_web_server.truth(), KINDS)
    warc_dir = tmp_path_factory.mktemp("warc")
    with crawl_outside_tests(test_web_server, django_db_blocker, warc_dir,
                             lambda: crawl_sites(sites, budget=80)) as crawl:
        yield Crawled(crawl.pk, sites, warc_dir)


@pytest.fixture
def staff_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("staff", password="x", is_staff=True))
    return client
