"""Two RQ workers on real Redis and PostgreSQL share one crawl and never lease the same Target twice."""
import os
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from django.db import connection

from crawlweb.models import Crawl
from crawlweb.jobs.crawl_control import start_crawl
from frontier.models import Target
from tests.integration.helpers import crawl_of_test_web, page_requests

ROOT = Path(__file__).resolve().parents[2]
# Long enough that the crawl outlasts a worker's start-up (2–5 s on a loaded machine), so both
# workers are crawling at once; short enough to keep the test near ten seconds.
INTERVAL = 0.8
pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def database_url_of_test_database() -> str:
    s = connection.settings_dict
    assert s["ENGINE"].endswith("postgresql"), "this test runs on PostgreSQL (DATABASE_URL)"
    return f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def start_worker(redis_url: str, proxy: str, tmp_path) -> subprocess.Popen:
    env = dict(os.environ, DATABASE_URL=database_url_of_test_database(), REDIS_URL=redis_url,
               HTTP_PROXY=proxy, http_proxy=proxy, NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost",
               CRAWLER_HOST_INTERVAL=str(INTERVAL),
               # Short steps: a 5 s step of the first worker up could do this whole small crawl before
               # the second one has started; 1 s steps (still several overlapped batches) hand over often.
               CRAWLER_STEP_SECONDS="1", WARC_DIR=str(tmp_path / "warc"), VAR_DIR=str(tmp_path))
    return subprocess.Popen([sys.executable, "manage.py", "rqworker", "crawl", "--burst"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def test_two_workers_share_a_crawl_without_fetching_a_target_twice(settings, through_test_web, empty_queues,
                                                                    tmp_path):
    settings.REDIS_URL = settings.RQ_QUEUES["crawl"]["URL"]
    crawl = crawl_of_test_web(through_test_web, budget=60, seeds=12, parallel_steps=4,
                              config={"host_interval": INTERVAL})
    start_crawl(crawl)
    workers = [start_worker(settings.REDIS_URL, through_test_web.proxy_url, tmp_path) for _ in range(2)]
    outputs = [worker.communicate(timeout=240)[0] for worker in workers]
    assert all(worker.returncode == 0 for worker in workers), outputs

    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    assert 60 <= crawl.pages_fetched <= 60 + 2 * settings.CRAWLER_BATCH_SIZE
    requests = page_requests(through_test_web)
    served = Counter(entry.url for entry in requests)
    assert max(served.values()) == 1, [url for url, n in served.items() if n > 1]
    owners = {owner.split(":")[1] for owner in
              Target.objects.filter(crawl=crawl).exclude(lease_owner="").values_list("lease_owner", flat=True)}
    assert len(owners) == 2, "both worker processes leased Targets"
    # Per host, requests never overlap and are at least the interval apart (server-side timestamps).
    by_host = defaultdict(list)
    for entry in sorted(requests, key=lambda e: e.monotonic):
        by_host[entry.host].append(entry)
    gaps = [b.monotonic - a.monotonic_end for entries in by_host.values() for a, b in zip(entries, entries[1:])]
    assert gaps and min(gaps) >= INTERVAL - 0.05
