"""The first crawl loop, end to end over real HTTP through the test web proxy, in every job mode."""
from collections import Counter

import pytest
from django.db.models import Count

from crawlweb.crawler.fetch import FetchResult
from crawlweb.models import Crawl, Link, Page
from crawlweb.services import prep_processes
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.jobs.crawl_control import start_crawl
from evaluation.models import DeepCheck
from frontier.models import Target
from tests.conftest import set_job_mode
from tests.integration.helpers import crawl_of_test_web, page_requests

SLOW_PAGE_S = 8.0

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_crawl_of_the_test_web_fetches_its_budget_and_stores_pages_and_links(
        job_mode, through_test_web, crawl_settings, run_jobs):
    crawl = crawl_of_test_web(through_test_web, budget=40)
    start_crawl(crawl)
    run_jobs()
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    assert crawl.pages_fetched == 40
    assert Page.objects.filter(crawl=crawl).count() >= 30
    assert Link.objects.filter(page__crawl=crawl).count() > 100
    assert Target.objects.filter(crawl=crawl, origin=Target.Origin.FORWARD).count() > 40
    requests = page_requests(through_test_web)
    served = Counter(entry.url for entry in requests if entry.method == "GET")
    assert served and max(served.values()) == 1, "no page is fetched twice"
    assert sum(served.values()) == 40
    # Besides the budget's GETs, only the deep-page checks' HEADs (Pupsniffer's guesses, each once)
    checked = Counter(entry.url for entry in requests if entry.method == "HEAD")
    assert all(n == 1 for n in checked.values())
    assert set(checked) <= set(DeepCheck.objects.filter(crawl=crawl).values_list("guessed_url", flat=True))
    assert len(requests) == 40 + len(checked)


def test_pages_keep_their_title_text_and_link_contexts(job_mode, through_test_web, crawl_settings, run_jobs):
    crawl = crawl_of_test_web(through_test_web, budget=25, seeds=3)
    start_crawl(crawl)
    run_jobs()
    page = Page.objects.filter(crawl=crawl, status_code=200, content_type="text/html").exclude(title="").first()
    assert page is not None and len(page.text) > 100
    assert page.md5 and len(page.md5) == 32
    assert page.links.exclude(anchor_text="").exists()


def test_a_step_run_again_after_a_lost_update_duplicates_nothing(through_test_web, crawl_settings, run_jobs,
                                                                 settings, empty_queues):
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "sync"
    crawl = crawl_of_test_web(through_test_web, budget=15, seeds=2)
    start_crawl(crawl)
    pages, links = Page.objects.count(), Link.objects.count()
    assert pages > 0
    # A worker died after storing but before its Target was marked done: the Target comes back.
    Target.objects.filter(crawl=crawl, state=Target.State.DONE, page__isnull=False).update(
        state=Target.State.PENDING)
    Crawl.objects.filter(pk=crawl.pk).update(state=Crawl.State.NEW, page_budget=40)
    start_crawl(crawl)
    assert Page.objects.filter(crawl=crawl).count() >= pages
    same_content = Page.objects.filter(crawl=crawl).values("md5").annotate(n=Count("id"))
    assert all(row["n"] == 1 for row in same_content)
    first_pages = Page.objects.filter(crawl=crawl).order_by("id")[:pages]
    assert sum(p.links.count() for p in first_pages) == links, "links of stored pages are not duplicated"


def test_a_paused_crawl_leases_nothing_until_it_is_resumed(through_test_web, crawl_settings, settings,
                                                           empty_queues):
    from crawlweb.jobs.crawl_step import crawl_step
    from crawlweb.jobs.crawl_control import pause_crawl, resume_crawl

    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "sync"  # start_crawl returns when its budget is spent
    crawl = crawl_of_test_web(through_test_web, budget=10, seeds=2)
    start_crawl(crawl)
    Crawl.objects.filter(pk=crawl.pk).update(state=Crawl.State.RUNNING, page_budget=20)
    pause_crawl(crawl)
    served = len(page_requests(through_test_web))
    assert crawl_step(crawl.pk) == 0
    assert len(page_requests(through_test_web)) == served, "a paused crawl fetches nothing"
    resume_crawl(crawl)
    crawl.refresh_from_db()
    assert (crawl.state, crawl.pages_fetched) == (Crawl.State.FINISHED, 20)


@pytest.mark.parametrize("mode", [pytest.param("rq", marks=pytest.mark.services), "thread"])
def test_a_slow_page_holds_up_only_its_own_host(mode, through_test_web, crawl_settings, run_jobs, settings,
                                                empty_queues, monkeypatch):
    """Pages are stored as they come back, a host free again once its page is in: the crawl goes
    on while the slow page (8 s) is answered. Stored batch by batch, it could start at most the
    rest of the slow page's batch and one batch more meanwhile (2 x 4 - 1 requests), however long
    the page takes; 8 s leaves a crawl on a loaded machine the time to show more."""
    set_job_mode(settings, mode)
    monkeypatch.setattr(through_test_web.web, "slow_delay_s", SLOW_PAGE_S)
    crawl_settings.CRAWLER_READ_TIMEOUT = 2 * SLOW_PAGE_S
    # One step leases for CRAWLER_STEP_SECONDS, then waits for what it fetches, the slow page included, and
    # these modes run one step at a time: the step must still lease while the page is out, or what is
    # measured is how many pages a loaded machine fetches in 5 s.
    crawl_settings.CRAWLER_STEP_SECONDS = 2 * SLOW_PAGE_S
    crawl_settings.CRAWLER_BATCH_SIZE = 4
    warm_preparation_process()  # as in a worker that runs already: the slow page's seconds are the crawl's
    slow_url = through_test_web.web.truth()["special_urls"]["slow"]
    # No address check: it looks the test web's made-up names up in this machine's DNS, where queries
    # side by side sometimes wait 5 s for nothing, and a fetch waiting so is no measure of this loop.
    crawl = crawl_of_test_web(through_test_web, budget=40, seeds=12, config={"address_policy": "private"})
    start_crawl(crawl, extra_urls=[slow_url])
    run_jobs()
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    (slow,) = [entry for entry in through_test_web.requests if entry.url == slow_url]
    assert slow.monotonic_end - slow.monotonic >= SLOW_PAGE_S - 0.5 and slow.status == 200
    meanwhile = [entry for entry in page_requests(through_test_web)
                 if slow.monotonic < entry.monotonic < slow.monotonic_end]
    assert len(meanwhile) > 2 * 4, f"only {len(meanwhile)} pages were requested during the slow one"
    assert Target.objects.get(crawl=crawl, url=slow_url).state == Target.State.DONE


def warm_preparation_process():
    """Start a fresh preparation process and wait until it has loaded its dictionaries. Fresh: a pool
    that earlier tests had grown could be replaced during this test (CRAWLER_PREPARE_PROCESS_GROWTH_MB),
    and the new one's warm-up would be counted as the crawl's wait."""
    prep_processes.shutdown()
    url = "http://warm.up/"
    prep_processes.prepare(FetchResult(requested_url=url, final_url=url, status=200, body=b"<p>Dobar dan</p>",
                                       headers={"content-type": "text/html"}), "warm.up", CrawlConfig.from_dict({}))
