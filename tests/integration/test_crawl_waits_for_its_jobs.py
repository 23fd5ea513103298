"""A running crawl with nothing left to lease does not finish while one of its own follow-up jobs is
queued or running (such a job may add Targets), and the Jobs page says, per crawl, what it waits for."""
import time

import pytest

from crawlweb.jobs.queueing import enqueue, wait_for_in_process_jobs
from crawlweb.models import Crawl
from crawlweb.services.crawl_control import start_crawl
from tests.conftest import set_job_mode
from tests.integration.helpers import start_rq_worker
from tests.integration.job_health_jobs import hold_crawl

pytestmark = pytest.mark.django_db(transaction=True)


def waits_row(client) -> str:
    html = client.get("/jobs/").content.decode()
    assert '<table id="crawl-waits">' in html, html
    return html.split('<table id="crawl-waits">', 1)[1].split("</table>", 1)[0]


def still_running_after(crawl: Crawl, seconds: float) -> bool:
    time.sleep(seconds)
    crawl.refresh_from_db()
    return crawl.state == Crawl.State.RUNNING


def finished_within(crawl: Crawl, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        crawl.refresh_from_db()
        if crawl.state != Crawl.State.RUNNING:
            return crawl.state == Crawl.State.FINISHED
        time.sleep(0.1)
    return False


def test_an_in_process_crawl_waits_for_its_own_job_and_the_jobs_page_says_so(settings, crawl_settings, admin_client,
                                                                               tmp_path):
    set_job_mode(settings, "thread")
    release = tmp_path / "release"
    crawl = Crawl.objects.create(name="waiting", page_budget=10)  # no seed: nothing to lease
    other = Crawl.objects.create(name="alone", page_budget=10)
    enqueue(hold_crawl, crawl.pk, str(release), queue_name="score")
    start_crawl(crawl)
    start_crawl(other)
    assert still_running_after(crawl, 2 * settings.CRAWLER_IDLE_FINISH_SECONDS)
    assert finished_within(other, 10), "a crawl with no job pending finishes as before"
    assert "frontier empty" in Crawl.objects.get(pk=other.pk).status_message
    rows = waits_row(admin_client).split("<tr>")
    assert any("waiting (#" in row and "running" in row and "1 hold_crawl" in row for row in rows), rows
    # the finished crawl's verdicts are queued behind that job on the same queue: shown too
    assert any("alone (#" in row and "finished" in row and "1 combine_site_verdicts" in row for row in rows), rows
    release.write_text("go\n")
    assert finished_within(crawl, 30)
    assert "frontier empty" in Crawl.objects.get(pk=crawl.pk).status_message
    assert wait_for_in_process_jobs(30)
    assert "No crawl has follow-up jobs" in admin_client.get("/jobs/").content.decode()


@pytest.mark.services
def test_a_crawl_on_rq_waits_for_its_queued_job_and_the_jobs_page_says_so(settings, crawl_settings, admin_client,
                                                                          empty_queues, tmp_path):
    set_job_mode(settings, "rq")
    import django_rq
    from rq.job import Job

    crawl = Crawl.objects.create(name="waiting", page_budget=10)
    enqueue(hold_crawl, crawl.pk, str(tmp_path / "never"), queue_name="score")  # no score worker: stays queued
    [job_id] = django_rq.get_queue("score").get_job_ids()
    start_crawl(crawl)
    steps = start_rq_worker(["crawl"], settings.REDIS_URL, tmp_path, burst=True)  # ends when the crawl does
    try:
        assert still_running_after(crawl, 5)  # the worker's start-up, then 1 s with nothing due
        rows = waits_row(admin_client)
        assert "waiting (#" in rows and "1 hold_crawl" in rows, rows
        Job.fetch(job_id, connection=django_rq.get_connection("score")).cancel()
        assert finished_within(crawl, 30)
    finally:
        steps.wait(60)
    assert "frontier empty" in Crawl.objects.get(pk=crawl.pk).status_message
    rows = waits_row(admin_client)  # no score worker: the finished crawl's verdicts wait, and say so
    assert "hold_crawl" not in rows and "finished" in rows and "1 combine_site_verdicts" in rows, rows
