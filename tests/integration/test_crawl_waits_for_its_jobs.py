"""A running crawl with nothing left to lease does not finish while one of its own follow-up jobs is
queued or running (such a job may add Targets), and the Jobs page says, per crawl, what it waits for."""
import time

import pytest

from crawlweb.jobs.queueing import enqueue, wait_for_in_process_jobs
from crawlweb.models import Crawl
from crawlweb.jobs.crawl_control import start_crawl
from frontier.crawl_progress import wait_for_crawl_jobs
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
    shown = admin_client.get(f"/crawls/{crawl.pk}/").content.decode()  # the crawl's own page says it too
    assert "Its jobs" in shown and "1 hold_crawl queued or running; the crawl finishes once they are done" in shown
    release.write_text("go\n")
    assert finished_within(crawl, 30)
    assert "frontier empty" in Crawl.objects.get(pk=crawl.pk).status_message
    assert wait_for_in_process_jobs(30)
    assert "No crawl has follow-up jobs" in admin_client.get("/jobs/").content.decode()
    assert "Its jobs" not in admin_client.get(f"/crawls/{crawl.pk}/").content.decode()


@pytest.mark.services
def test_a_crawl_on_rq_waits_for_its_running_job_and_the_jobs_page_says_so(settings, crawl_settings, admin_client,
                                                                           empty_queues, tmp_path):
    """Workers per queue: the crawl's job runs on the score worker while the crawl worker's steps look."""
    set_job_mode(settings, "rq")
    release = tmp_path / "release"
    crawl = Crawl.objects.create(name="waiting", page_budget=10)
    enqueue(hold_crawl, crawl.pk, str(release), queue_name="score")
    start_crawl(crawl)
    workers = [start_rq_worker(["crawl"], settings.REDIS_URL, tmp_path, burst=True),  # each ends when
               start_rq_worker(["score"], settings.REDIS_URL, tmp_path, burst=True)]  # its queue is empty
    try:
        assert still_running_after(crawl, 5)  # the workers' start-up, then 1 s with nothing due
        rows = waits_row(admin_client)
        assert "waiting (#" in rows and "1 hold_crawl" in rows, rows
        release.write_text("go\n")
        assert finished_within(crawl, 30)
    finally:
        release.write_text("go\n")
        for worker in workers:
            worker.wait(60)
    assert "frontier empty" in Crawl.objects.get(pk=crawl.pk).status_message
    assert "hold_crawl" not in admin_client.get("/jobs/").content.decode()


@pytest.mark.services
def test_one_worker_that_takes_crawl_steps_first_still_runs_the_jobs_they_wait_for(settings, crawl_settings,
                                                                                   empty_queues, tmp_path):
    """`rqworker crawl score train`: a waiting step that only re-queued itself on "crawl" would be all
    this worker ever ran. It queues behind the crawl's job instead, so the job runs and the crawl ends."""
    set_job_mode(settings, "rq")
    release = tmp_path / "release"
    release.write_text("go\n")  # the job ends as soon as it runs
    crawl = Crawl.objects.create(name="one worker", page_budget=10)
    enqueue(hold_crawl, crawl.pk, str(release), queue_name="score")
    start_crawl(crawl)
    worker = start_rq_worker(["crawl", "score", "train"], settings.REDIS_URL, tmp_path, burst=True)
    try:
        assert worker.wait(90) == 0
    finally:
        if worker.poll() is None:
            worker.kill()
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED and "frontier empty" in crawl.status_message


def test_the_command_s_wait_says_what_it_waits_for(settings, tmp_path):
    """What `crawl start` prints while the crawl's jobs run in its own process."""
    set_job_mode(settings, "thread")
    release = tmp_path / "release"
    crawl = Crawl.objects.create(name="printed", page_budget=10)
    other = Crawl.objects.create(name="other", page_budget=10)
    enqueue(hold_crawl, other.pk, str(tmp_path / "other-release"), queue_name="train")  # not this crawl's
    enqueue(hold_crawl, crawl.pk, str(release), queue_name="score")
    lines = []

    def write(line: str) -> None:
        lines.append(line)
        release.write_text("go\n")

    wait_for_crawl_jobs(crawl, write)
    assert lines == ["waiting for the crawl's follow-up jobs: 1 hold_crawl", "the crawl's follow-up jobs are done"]
    (tmp_path / "other-release").write_text("go\n")
    assert wait_for_in_process_jobs(30)
