"""How crawls end, and several at once: a time limit stops a crawl cleanly and says so, an empty
frontier finishes one and says so, and two crawls with different configurations run side by side."""
import time

import pytest
from django.utils import timezone

from crawlweb.models import Crawl, Page
from crawlweb.jobs.crawl_control import start_crawl
from frontier.models import LayerPlacement, Target
from tests.conftest import set_job_mode
from tests.integration.helpers import crawl_of_test_web, page_requests

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=[pytest.param("rq", marks=pytest.mark.services), "thread"])
def running_mode(request, settings, empty_queues):
    return set_job_mode(settings, request.param)


def test_a_crawl_with_a_two_second_limit_stops_and_says_time_limit_reached(
        running_mode, through_test_web, crawl_settings, run_jobs):
    # One request per host per second: the test web's 240 pages would take far longer than 2 s.
    crawl = crawl_of_test_web(through_test_web, budget=1000, time_limit_seconds=2, config={"host_interval": 1.0})
    began = time.monotonic()
    start_crawl(crawl)
    run_jobs()
    elapsed = time.monotonic() - began
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    assert crawl.status_message.startswith("time limit reached (2 s)"), crawl.status_message
    assert 0 < crawl.pages_fetched < 240
    assert 2 <= (crawl.finished_at - crawl.started_at).total_seconds() < 12, "it stops soon after its time is up"
    assert elapsed < 20
    # Cleanly: nothing is left leased, every page fetched was counted, no request after the deadline.
    assert not Target.objects.filter(crawl=crawl, state=Target.State.LEASED).exists()
    assert Target.objects.filter(crawl=crawl, state=Target.State.DONE).count() == Page.objects.filter(
        crawl=crawl).count() <= crawl.pages_fetched
    assert len(page_requests(through_test_web)) == crawl.pages_fetched
    assert all(t.fetched_at <= crawl.deadline_at + timezone.timedelta(seconds=crawl_settings.CRAWLER_READ_TIMEOUT)
               for t in Target.objects.filter(crawl=crawl, fetched_at__isnull=False))


def test_a_crawl_whose_frontier_empties_finishes_and_says_so(running_mode, through_test_web, crawl_settings, run_jobs):
    crawl = crawl_of_test_web(through_test_web, budget=1000, seeds=1, follow_out_of_site=False,
                              config={"host_interval": 0})
    start_crawl(crawl)
    run_jobs()
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    assert crawl.pages_fetched < 1000
    assert crawl.status_message == "frontier empty: no Target left to fetch"
    assert not Target.objects.filter(crawl=crawl, state=Target.State.PENDING).exists()


def test_two_crawls_with_different_configurations_run_at_once_and_both_finish(
        running_mode, through_test_web, crawl_settings, run_jobs):
    truth = through_test_web.web.truth()
    breadth = crawl_of_test_web(through_test_web, budget=15, seeds=2, config={"host_interval": 0})
    layered = crawl_of_test_web(through_test_web, budget=25, seeds=1, parallel_steps=2, config={
        "host_interval": 0, "modules": {"M01": {"pair": "sr-en"}, "M03": {}}})
    start_crawl(breadth)
    start_crawl(layered)
    run_jobs()
    for crawl in (breadth, layered):
        crawl.refresh_from_db()
        assert crawl.state == Crawl.State.FINISHED, crawl.last_error
        assert crawl.status_message.startswith("page budget spent"), crawl.status_message
    assert (breadth.pages_fetched, layered.pages_fetched) == (15, 25)
    # Each kept its own configuration and seeds: only the layered crawl's Targets were placed in
    # layers, and each crawl's seeds are its own.
    assert LayerPlacement.objects.filter(target__crawl=layered).exists()
    assert not LayerPlacement.objects.filter(target__crawl=breadth).exists()
    seeds = {crawl.pk: set(Target.objects.filter(crawl=crawl, origin=Target.Origin.SEED).values_list("url", flat=True))
             for crawl in (breadth, layered)}
    assert seeds == {breadth.pk: set(truth["seed_urls"][:2]), layered.pk: set(truth["seed_urls"][:1])}
    # Their runs overlapped: each started before the other finished.
    assert breadth.started_at < layered.finished_at and layered.started_at < breadth.finished_at
