"""A worker killed with SIGKILL mid-batch loses nothing: its leases expire and another worker
fetches those Targets again — never while the first fetch could still be running."""
import os
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

from crawlweb.models import Crawl, Host
from crawlweb.jobs.crawl_control import start_crawl
from frontier.models import Target
from tests.integration.test_two_workers import database_url_of_test_database

ROOT = Path(__file__).resolve().parents[2]
LEASE_SECONDS = 4
pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def children_of(pid: int) -> list[int]:
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            children.append(int(stat.parent.name))
    return children


def worker(settings, proxy, tmp_path, *extra) -> subprocess.Popen:
    env = dict(os.environ, DATABASE_URL=database_url_of_test_database(), REDIS_URL=settings.REDIS_URL,
               HTTP_PROXY=proxy, http_proxy=proxy, NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost",
               CRAWLER_LEASE_SECONDS=str(LEASE_SECONDS), CRAWLER_HOST_INTERVAL="0", WARC_DIR=str(tmp_path / "warc"),
               VAR_DIR=str(tmp_path))
    return subprocess.Popen([sys.executable, "manage.py", "rqworker", "crawl", *extra], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def test_targets_of_a_killed_worker_are_fetched_again_after_their_lease_expires(
        settings, through_test_web, empty_queues, tmp_path):
    settings.REDIS_URL = settings.RQ_QUEUES["crawl"]["URL"]
    specials = through_test_web.web.truth()["special_urls"]
    slow_url = specials["slow"]  # answers after 3 s: the worker is surely mid-fetch when killed
    crawl = Crawl.objects.create(name="killed", page_budget=12, parallel_steps=2, follow_out_of_site=False,
                                 max_depth=1, config={"host_interval": 0})
    start_crawl(crawl, extra_urls=[slow_url, "http://www.primer.rs/", "http://www.galerija.rs/"])

    first = worker(settings, through_test_web.proxy_url, tmp_path)
    slow = Target.objects.filter(crawl=crawl, url=slow_url)
    robots_known = Host.objects.filter(name="www.problemi.rs", robots_status__isnull=False)
    deadline = time.monotonic() + 60
    # The page's own lease, not the one that fetched the host's robots.txt first.
    while not (robots_known.exists() and slow.filter(state=Target.State.LEASED).exists()):
        assert time.monotonic() < deadline and first.poll() is None, "the first worker never leased the slow page"
        time.sleep(0.05)
    time.sleep(0.5)
    # The worker and its work horse, mid-batch (RQ starts the horse in a session of its own).
    for pid in [first.pid, *children_of(first.pid)]:
        os.kill(pid, signal.SIGKILL)
    first.wait(timeout=10)
    assert slow.get().state == Target.State.LEASED, "the killed worker's lease is still held"

    second = worker(settings, through_test_web.proxy_url, tmp_path, "--burst")
    try:
        second.wait(timeout=120)
    finally:
        if second.poll() is None:
            os.killpg(second.pid, signal.SIGKILL)

    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    assert slow.get().state == Target.State.DONE and slow.get().page_id is not None
    assert not Target.objects.filter(crawl=crawl, state=Target.State.LEASED).exists(), "no Target is lost"
    time.sleep(3.5)  # let the killed worker's abandoned slow request finish, so the server logs it
    by_url = defaultdict(list)
    for entry in through_test_web.requests:
        by_url[entry.url].append(entry)
    slow_requests = sorted(by_url[slow_url], key=lambda e: e.monotonic)
    assert len(slow_requests) == 2, "fetched once by the killed worker, once after its lease expired"
    for requests in by_url.values():
        requests.sort(key=lambda e: e.monotonic)
        for earlier, later in zip(requests, requests[1:]):
            assert later.monotonic >= earlier.monotonic + LEASE_SECONDS - 0.5, (
                f"{later.url} fetched again before the first lease expired")
