"""A crawl step that PostgreSQL fails mid-store (breaking a deadlock) runs again at once and the crawl
goes on: the Targets the failed step had leased are pending again, not held until their leases expire.

The error is PostgreSQL's own: a trigger on the page table raises `deadlock_detected` on the first
insert of pages, exactly what the server sends when it picks a step as a deadlock's victim."""
from collections import Counter

import pytest
from django.db import connection

from crawlweb.models import Crawl, Page
from crawlweb.jobs.crawl_control import start_crawl
from frontier.models import Target
from tests.integration.helpers import crawl_of_test_web, page_requests

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

# nextval is not rolled back with the failed transaction, so only the first insert fails.
DEADLOCK_ON_FIRST_PAGE_INSERT = """
CREATE SEQUENCE fault_page_inserts;
CREATE FUNCTION fault_deadlock_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF nextval('fault_page_inserts') = 1 THEN
    RAISE EXCEPTION 'deadlock detected' USING ERRCODE = 'deadlock_detected';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER fault_deadlock_once BEFORE INSERT ON crawlweb_page
  FOR EACH STATEMENT EXECUTE FUNCTION fault_deadlock_once();
"""
REMOVE_FAULT = """
DROP TRIGGER IF EXISTS fault_deadlock_once ON crawlweb_page;
DROP FUNCTION IF EXISTS fault_deadlock_once();
DROP SEQUENCE IF EXISTS fault_page_inserts;
"""


@pytest.fixture
def deadlock_on_first_page_insert():
    assert connection.vendor == "postgresql", "this test runs on PostgreSQL (DATABASE_URL)"
    with connection.cursor() as cursor:
        cursor.execute(DEADLOCK_ON_FIRST_PAGE_INSERT)
    yield
    with connection.cursor() as cursor:
        cursor.execute(REMOVE_FAULT)


def failed_inserts() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT last_value FROM fault_page_inserts")
        return cursor.fetchone()[0]


def test_a_step_failed_by_a_deadlock_hands_its_leases_back_and_the_crawl_finishes(
        settings, crawl_settings, through_test_web, run_jobs, empty_queues, deadlock_on_first_page_insert):
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "thread"  # the step is re-enqueued, as on a worker
    # Leases far longer than the test may wait: a step that let them run out stalls the crawl.
    settings.CRAWLER_LEASE_SECONDS = 900
    crawl = crawl_of_test_web(through_test_web, budget=30, seeds=3)
    start_crawl(crawl)
    run_jobs(timeout=90)
    crawl.refresh_from_db()

    assert failed_inserts() > 1, "the fault fired and later inserts went through"
    assert "retried after: deadlock detected" in crawl.last_error
    assert crawl.state == Crawl.State.FINISHED, crawl.status_message
    assert crawl.pages_fetched == 30
    assert not Target.objects.filter(crawl=crawl, state=Target.State.LEASED).exists()
    # The failed step's pages were fetched again (their first fetch was never stored) and stored once.
    served = Counter(entry.url for entry in page_requests(through_test_web) if entry.method == "GET")
    assert max(served.values()) == 2, "the pages of the failed batch were fetched a second time"
    stored = Counter(Page.objects.filter(crawl=crawl).values_list("url", flat=True))
    assert stored and max(stored.values()) == 1
    again = [url for url, n in served.items() if n == 2]
    assert Target.objects.filter(crawl=crawl, url__in=again, attempts=1).count() == len(again), (
        "a handed-back fetch is not counted as an attempt")
