"""Pages prepared in the worker's preparation processes are the pages the fetch threads would make,
and a preparation process that dies loses no page."""
import os
import signal

import pytest

from crawlweb.crawler.fetch import FetchResult
from crawlweb.devdata import shared_data_dir
from crawlweb.services import prep_processes
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.page_prep import prepare_page

REAL_PAGES = sorted((shared_data_dir() / "real-sites" / "hosts" / "www.drustvohispanistasrbija.rs").rglob("*.html"))[:6]


def _fetched(path) -> FetchResult:
    url = f"http://www.drustvohispanistasrbija.rs/{path.name}"
    return FetchResult(requested_url=url, final_url=url, status=200, body=path.read_bytes(),
                       headers={"content-type": "text/html; charset=utf-8"})


@pytest.fixture
def one_process(settings):
    settings.CRAWLER_PREPARE_PROCESSES = 1
    yield
    prep_processes.shutdown()


def test_real_pages_prepared_in_a_process_equal_those_prepared_in_the_thread(one_process):
    assert REAL_PAGES, "the development data's real sites are missing (SHARED_DATA_DIR)"
    config = CrawlConfig.from_dict({"session_params": ["sid"]})
    for path in REAL_PAGES:
        here = prepare_page(_fetched(path), "drustvohispanistasrbija.rs", config)
        there = prep_processes.prepare(_fetched(path), "drustvohispanistasrbija.rs", config)
        assert there == here
        assert there.fields["language"] and there.links  # Serbian, English and Spanish pages
    assert prep_processes.process_ids(), "the pages were prepared in the thread, not in a process"


def test_a_killed_preparation_process_loses_no_page_and_is_replaced(one_process):
    config = CrawlConfig.from_dict({})
    first = prep_processes.prepare(_fetched(REAL_PAGES[0]), "drustvohispanistasrbija.rs", config)
    (victim,) = prep_processes.process_ids()
    os.kill(victim, signal.SIGKILL)

    again = prep_processes.prepare(_fetched(REAL_PAGES[0]), "drustvohispanistasrbija.rs", config)
    assert again == first  # prepared in the thread when the pool turned out broken
    prep_processes.prepare(_fetched(REAL_PAGES[1]), "drustvohispanistasrbija.rs", config)
    assert prep_processes.process_ids() and victim not in prep_processes.process_ids()


def test_no_processes_when_set_to_zero(settings):
    settings.CRAWLER_PREPARE_PROCESSES = 0
    prep_processes.shutdown()
    page = prep_processes.prepare(_fetched(REAL_PAGES[0]), "drustvohispanistasrbija.rs", CrawlConfig.from_dict({}))
    assert page.parsed is not None and prep_processes.process_ids() == []
