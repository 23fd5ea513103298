"""A crawl whose runner died, seen on its page in Chromium: `manage.py crawl start` runs a real crawl in
the embedded mode (its jobs in its own threads) against this test's database, and is killed with
SIGKILL halfway. The crawl stays *running* with nothing to run it. Its page says the runner is gone and
offers Take over instead of Pause; pressing it runs the rest of the crawl in the web server (here the
live server, jobs on its in-process threads) to its budget. Before, the page showed Pause, Stop and
Re-harvest on a crawl nothing ran, with no word of it."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

from crawlweb.models import Crawl
from crawlweb.process_identity import this_process
from tests.evaluation_integration.helpers import home_urls, pick_sites

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
BUDGET = 14
WAIT_S = 120  # the longest wait for one thing to happen, on a loaded two-core machine


def this_tests_database() -> str:
    """A DATABASE_URL naming the database this test (and its live server) uses."""
    named = connection.settings_dict
    if named["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{named['NAME']}"
    password = f":{quote(named['PASSWORD'])}" if named["PASSWORD"] else ""
    return f"postgres://{quote(named['USER'])}{password}@{named['HOST']}:{named['PORT'] or 5432}/{named['NAME']}"


def runner_env(tmp_path: Path, proxy_url: str) -> dict:
    """The embedded mode (no REDIS_URL: jobs in the command's own threads) on this test's database."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "JOBS_INPROCESS_MODE")}
    env.update(DATABASE_URL=this_tests_database(), VAR_DIR=str(tmp_path), WARC_DIR=str(tmp_path / "warc"),
               HTTP_PROXY=proxy_url, http_proxy=proxy_url, NO_PROXY="127.0.0.1,localhost",
               no_proxy="127.0.0.1,localhost", CRAWLER_READ_TIMEOUT="5", CRAWLER_IDLE_FINISH_SECONDS="3")
    return env


def wait_for(what: str, check, process: subprocess.Popen | None = None, log: Path | None = None):
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if found := check():
            return found
        if process is not None and process.poll() is not None:
            pytest.fail(f"the runner exited ({process.returncode}) before {what}:\n{log.read_text()}")
        time.sleep(0.3)
    pytest.fail(f"waited {WAIT_S} s for {what}" + (f":\n{log.read_text()}" if log else ""))


def test_a_crawl_whose_runner_was_killed_says_so_and_take_over_finishes_it(
        page, live_server, staff_login, settings, crawl_settings, through_test_web, tmp_path):
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "thread"  # the web server runs what it takes over
    sites = pick_sites(through_test_web.web.truth(), [("bilingual-sr-en", "dirs"), ("bilingual-sr-en", "suffix-dot")])
    urls = [arg for url in home_urls(sites) for arg in ("--url", url)]
    log = tmp_path / "runner.log"
    with open(log, "w") as out:  # one request per host every 0.7 s: the kill lands halfway
        runner = subprocess.Popen([sys.executable, "manage.py", "crawl", "start", "--name", "runner dies",
                                   "--strategy", "bfs", *urls, "--budget", str(BUDGET), "--in-site-only",
                                   "--host-interval", "0.7"], cwd=ROOT, env=runner_env(tmp_path, through_test_web.proxy_url),
                                  stdout=out, stderr=subprocess.STDOUT)
    try:
        crawl = wait_for("the runner fetched 3 pages", lambda: Crawl.objects.filter(
            name="runner dies", state=Crawl.State.RUNNING, pages_fetched__gte=3).first(), runner, log)
        assert f" pid {runner.pid} " in crawl.runner
    finally:
        runner.send_signal(signal.SIGKILL)
        runner.wait(timeout=30)
    crawl.refresh_from_db()
    fetched_by_the_runner = crawl.pages_fetched
    assert crawl.state == Crawl.State.RUNNING and fetched_by_the_runner < BUDGET, log.read_text()

    staff_login()
    page.goto(f"{live_server.url}/crawls/{crawl.pk}/")
    gone = page.locator("#crawl-status .runner-gone")
    assert f"process {runner.pid} on host" in gone.inner_text() and "has ended" in gone.inner_text()
    buttons = page.locator("#crawl-actions button")
    assert buttons.all_inner_texts() == ["Take over (resume here)", "Stop"]
    time.sleep(3)  # the live panel, polled every 2 s, keeps saying so
    assert page.locator("#crawl-status .runner-gone").count() == 1

    with page.expect_navigation():
        page.click("#crawl-actions button:text('Take over (resume here)')")
    assert "resume: done." in page.locator(".messages").inner_text()
    assert page.locator("#crawl-status .runner-gone").count() == 0
    assert page.locator("#crawl-actions button").all_inner_texts() == ["Pause", "Stop", "Re-harvest"]
    assert "resumed by the operator" in page.locator("#crawl-status .status-message").inner_text()

    page.locator("#crawl-status dd.state-finished").wait_for(timeout=WAIT_S * 1000)  # the live panel follows it
    crawl.refresh_from_db()
    assert crawl.pages_fetched == BUDGET > fetched_by_the_runner, crawl.status_message
    assert crawl.runner == str(this_process())
    assert page.locator("#crawl-status .pages-fetched").inner_text() == f"{BUDGET} / {BUDGET}"
