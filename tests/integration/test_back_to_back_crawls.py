"""A crawl started while the previous crawl's scoring and detection jobs still fill the queue does not
decide it is out of work while its own jobs wait: its BS Detector's verdicts (which add the bilingual
sites' backlinks as Targets) are still to come. It used to finish after its seed pages, "frontier
empty: no Target left to fetch", its detector jobs queued behind the first crawl's scoring."""
import signal
import time

import pytest

from crawlweb.jobs.queueing import wait_for_in_process_jobs
from crawlweb.models import Crawl
from crawlweb.jobs.crawl_control import start_crawl
from frontier.models import SiteVerdict, Target
from crawlweb.crawler.urls import site_name
from tests.discovery_integration.conftest import bilingual_homes, discovery_crawl
from tests.integration.helpers import start_rq_worker

BUDGET = 20
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def quick_to_finish(crawl_settings):
    """A crawl with nothing due finishes after a second of quiet: the first crawl's follow-ups
    outlast that, as a big crawl's scoring outlasts the default two minutes."""
    crawl_settings.CRAWLER_IDLE_FINISH_SECONDS = 1.0
    return crawl_settings


def wait_until_not_running(crawl: Crawl, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        crawl.refresh_from_db()
        if crawl.state != Crawl.State.RUNNING:
            return
        time.sleep(0.1)
    raise AssertionError(f"crawl {crawl.pk} still running after {timeout} s")


def back_to_back(server) -> tuple[Crawl, Crawl]:
    """Two OBFC crawls of the same seeds; the second starts as soon as the first has finished,
    its last pairing pass, verdicts and detector jobs still queued."""
    first = discovery_crawl(server, "obfc", budget=BUDGET)
    start_crawl(first)
    wait_until_not_running(first)
    second = discovery_crawl(server, "obfc", budget=BUDGET)
    start_crawl(second)
    wait_until_not_running(second)
    return first, second


def assert_both_found_their_sites(server, first: Crawl, second: Crawl) -> None:
    for crawl in (first, second):
        crawl.refresh_from_db()
        assert crawl.state == Crawl.State.FINISHED, (crawl.state, crawl.last_error)
        # (the detector's own reads of a site may go a page or two over the budget)
        assert crawl.pages_fetched >= BUDGET, (crawl.pk, crawl.status_message)
        assert "budget spent" in crawl.status_message, crawl.status_message
        assert Target.objects.filter(crawl=crawl, origin=Target.Origin.BACKLINK).exists(), crawl.status_message
    # The detector found a seed site bilingual (a page of the other seed's that timed out under load
    # may hide it), and no site is called bilingual that is not.
    seed_sites = {site_name(url.split("/")[2]) for url in bilingual_homes(server)}
    truly = {site_name(s["host"]) for s in server.web.truth()["sites"] if s["bilingual_sr_en"]}
    for crawl in (first, second):
        found = set(SiteVerdict.objects.filter(crawl=crawl, bilingual=True).values_list("site__name", flat=True))
        by_detector = set(SiteVerdict.objects.filter(crawl=crawl, evidence__detector_bilingual=True)
                          .values_list("site__name", flat=True))
        assert by_detector & seed_sites and found <= truly, (crawl.pk, found, by_detector)


def test_back_to_back_crawls_on_in_process_jobs_both_find_their_sites(settings, quick_to_finish, through_test_web,
                                                                      empty_queues):
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "thread"
    first, second = back_to_back(through_test_web)
    assert wait_for_in_process_jobs(240)
    assert_both_found_their_sites(through_test_web, first, second)


@pytest.mark.services
def test_back_to_back_crawls_on_rq_workers_both_find_their_sites(settings, quick_to_finish, through_test_web,
                                                                 empty_queues, tmp_path):
    """At scale: one worker runs the crawl steps, another the scoring and detection, as when workers
    are started per queue."""
    settings.REDIS_URL = settings.RQ_QUEUES["crawl"]["URL"]
    workers = [start_rq_worker(["crawl"], settings.REDIS_URL, tmp_path, through_test_web.proxy_url),
               start_rq_worker(["score", "train"], settings.REDIS_URL, tmp_path, through_test_web.proxy_url)]
    try:
        first, second = back_to_back(through_test_web)
        deadline = time.monotonic() + 240
        while (SiteVerdict.objects.filter(crawl=second, evidence__has_key="combined").count()
               < SiteVerdict.objects.filter(crawl=second).count() or not SiteVerdict.objects.filter(crawl=second)):
            assert time.monotonic() < deadline, "the second crawl's verdicts were combined"
            time.sleep(0.5)
    finally:
        for worker in workers:
            worker.send_signal(signal.SIGTERM)
        for worker in workers:
            worker.wait(60)
    assert_both_found_their_sites(through_test_web, first, second)
