"""The job health page: RQ's queues, workers and failed jobs on real Redis, retry and delete,
the in-process workers in the embedded mode, and who may see and use it."""
import re
import threading
import time

import pytest
from django.db import connections
from django.test import Client

from crawlweb.jobs.queueing import enqueue, wait_for_in_process_jobs
from tests.conftest import set_job_mode
from tests.integration.job_health_jobs import fail_first_time, wait_for_file

pytestmark = pytest.mark.django_db(transaction=True)
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture
def rq_mode(settings, empty_queues):
    """RQ on the test Redis database, emptied: earlier tests leave failed and finished jobs, and
    workers they killed with SIGKILL stay registered until their heartbeat expires."""
    set_job_mode(settings, "rq")
    import django_rq
    django_rq.get_connection("crawl").flushdb()
    return settings


@pytest.fixture
def staff_browser(django_user_model):
    """A logged-in staff user whose client checks CSRF tokens as a browser's requests are checked."""
    user = django_user_model.objects.create_user("operator", password="pw-operator", is_staff=True)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def burst_worker():
    import django_rq
    from rq import SimpleWorker

    queues = [django_rq.get_queue(name) for name in ("score", "train", "crawl")]
    SimpleWorker(queues, connection=queues[0].connection).work(burst=True)


def row_of(html: str, table: str, first_cell: str) -> str:
    body = html.split(f'<table id="{table}">', 1)[1].split("</table>", 1)[0]
    for row in body.split("<tr>")[1:]:
        if row.strip().startswith(f"<td>{first_cell}</td>"):
            return row
    raise AssertionError(f"no row {first_cell!r} in table {table}")


def counts(row: str) -> list[int]:
    return [int(n) for n in re.findall(r'<td class="num">(\d+)</td>', row)]


@pytest.mark.services
def test_a_failed_job_shows_its_error_and_retry_runs_it_again(rq_mode, staff_browser, tmp_path):
    marker = tmp_path / "marker"
    enqueue(fail_first_time, str(marker), queue_name="score")
    burst_worker()
    page = staff_browser.get("/jobs/").content.decode()
    assert counts(row_of(page, "queues", "score")) == [0, 0, 0, 1]  # queued, started, finished, failed
    failed = page.split('<table id="failed">', 1)[1]
    assert "job_health_jobs.fail_first_time(" in failed
    assert "RuntimeError: first attempt fails on purpose &lt;b&gt;not bold&lt;/b&gt;" in failed
    assert "<b>not bold</b>" not in page, "a job's error is shown escaped"

    job_id = re.search(r'action="/jobs/score/([0-9a-f-]+)/retry/"', failed).group(1)
    token = CSRF.search(page).group(1)
    assert staff_browser.post(f"/jobs/score/{job_id}/retry/").status_code == 403, "a POST without CSRF is refused"
    response = staff_browser.post(f"/jobs/score/{job_id}/retry/", {"csrfmiddlewaretoken": token}, follow=True)
    page = response.content.decode()
    assert f"Job {job_id} of queue score requeued." in page
    assert counts(row_of(page, "queues", "score")) == [1, 0, 0, 0]
    assert "No failed jobs." in page

    burst_worker()
    assert marker.read_text() == "succeeded on retry\n"
    page = staff_browser.get("/jobs/").content.decode()
    assert counts(row_of(page, "queues", "score")) == [0, 0, 1, 0]


@pytest.mark.services
def test_failed_jobs_are_deleted_one_by_one_or_all_at_once(rq_mode, staff_browser, tmp_path):
    for i in range(3):
        enqueue(fail_first_time, str(tmp_path / f"m{i}"), queue_name="train")
    burst_worker()
    page = staff_browser.get("/jobs/").content.decode()
    assert counts(row_of(page, "queues", "train"))[3] == 3
    token = CSRF.search(page).group(1)
    job_id = re.search(r'action="/jobs/train/([0-9a-f-]+)/delete/"', page).group(1)
    page = staff_browser.post(f"/jobs/train/{job_id}/delete/", {"csrfmiddlewaretoken": token},
                              follow=True).content.decode()
    assert f"Job {job_id} of queue train deleted." in page and job_id not in page.split("</ul>", 1)[1]
    assert counts(row_of(page, "queues", "train"))[3] == 2
    page = staff_browser.post("/jobs/train/failed/clear/", {"csrfmiddlewaretoken": token},
                              follow=True).content.decode()
    assert "2 failed jobs of queue train deleted." in page and "No failed jobs." in page
    # A job that is gone is named in a clear message, and nothing else changes.
    page = staff_browser.post(f"/jobs/train/{job_id}/retry/", {"csrfmiddlewaretoken": token},
                              follow=True).content.decode()
    assert f"job {job_id} is not among the failed jobs of queue train" in page
    page = staff_browser.post("/jobs/nosuch/failed/clear/", {"csrfmiddlewaretoken": token},
                              follow=True).content.decode()
    assert "unknown queue &#x27;nosuch&#x27;" in page


@pytest.mark.services
def test_a_busy_worker_is_listed_with_its_current_job_and_heartbeat(rq_mode, staff_browser, tmp_path):
    release = tmp_path / "release"
    enqueue(wait_for_file, str(release), queue_name="crawl")
    seen = {}

    def watch():  # reads the page while the worker (in the main thread: RQ installs signal handlers) works
        deadline = time.monotonic() + 30
        try:
            while time.monotonic() < deadline:
                page = staff_browser.get("/jobs/").content.decode()
                # RQ marks the worker busy a moment before the job enters the started registry.
                if ("wait_for_file(" in page.split('<table id="workers">', 1)[-1]
                        and counts(row_of(page, "queues", "crawl"))[1] == 1):
                    seen["page"] = page
                    return
                time.sleep(0.1)
        except Exception as error:  # reported below, by the test's own thread
            seen["error"] = error
        finally:
            release.write_text("go")
            connections.close_all()  # this thread's connection, so the test database can be dropped

    watcher = threading.Thread(target=watch)
    watcher.start()
    burst_worker()
    watcher.join(10)
    assert "error" not in seen, seen.get("error")
    assert "page" in seen, "the page never showed the running job"
    workers = seen["page"].split('<table id="workers">', 1)[1].split("</table>", 1)[0]
    assert "<td>busy</td>" in workers
    assert "job_health_jobs.wait_for_file(" in workers
    assert "score, train, crawl" in workers
    assert re.search(r"<td>0\xa0minutes ago</td>", workers), "a fresh heartbeat"
    assert counts(row_of(seen["page"], "queues", "crawl")) == [0, 1, 0, 0]


@pytest.mark.services
def test_with_no_worker_running_the_page_says_so(rq_mode, staff_browser):
    page = staff_browser.get("/jobs/").content.decode()
    assert "No worker is running: queued jobs wait." in page


def test_the_embedded_mode_shows_the_in_process_workers(settings, staff_browser, tmp_path):
    set_job_mode(settings, "thread")
    enqueue(fail_first_time, str(tmp_path / "marker"), queue_name="train")
    enqueue(fail_first_time, str(tmp_path / "marker"), queue_name="train")
    assert wait_for_in_process_jobs(30)
    page = staff_browser.get("/jobs/").content.decode()
    assert "jobs run in-process" in page
    train = row_of(page, "in-process", "train")
    assert "<td>alive</td>" in train and "idle" in train
    waiting, finished, failed = counts(train)
    assert waiting == 0 and finished >= 1 and failed >= 1  # the thread lives as long as the process
    assert "Last failure on queue train" in page
    assert "RuntimeError: first attempt fails on purpose &lt;b&gt;not bold&lt;/b&gt;" in page
    token = CSRF.search(page).group(1)
    page = staff_browser.post("/jobs/train/failed/clear/", {"csrfmiddlewaretoken": token},
                              follow=True).content.decode()
    assert "Nothing to clear: jobs run in-process." in page


def test_only_staff_see_or_act_on_jobs(client, django_user_model):
    assert client.get("/jobs/").status_code == 302, "anonymous: to the login page"
    assert client.post("/jobs/score/some-id/retry/").status_code == 302
    evaluator = django_user_model.objects.create_user("evaluator", password="pw-evaluator")
    client.force_login(evaluator)
    response = client.get("/jobs/")  # signed in, not staff: told why, with the way home
    assert response.status_code == 403 and 'href="/labeling/"' in response.content.decode()
    assert client.post("/jobs/score/failed/clear/").status_code == 403
    assert "/jobs/" not in client.get("/labeling/").content.decode(), "no Jobs link for non-staff"


def test_actions_refuse_get(staff_browser):
    assert staff_browser.get("/jobs/score/some-id/retry/").status_code == 405
    assert staff_browser.get("/jobs/score/failed/clear/").status_code == 405
