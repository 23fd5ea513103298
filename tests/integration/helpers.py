import os
import subprocess
import sys
import threading
from pathlib import Path

from django.db import connections

from crawlweb.models import Crawl, SeedList


def crawl_of_test_web(server, *, budget: int, seeds: int = 6, **fields) -> Crawl:
    truth = server.web.truth()
    seed_list = SeedList.objects.create(name=f"test web {SeedList.objects.count()}")
    seed_list.seeds.bulk_create([seed_list.seeds.model(seed_list=seed_list, url=url)
                                 for url in truth["seed_urls"][:seeds]])
    return Crawl.objects.create(name="test", seed_list=seed_list, page_budget=budget, **fields)


def page_requests(server):
    """Requests the test web served, robots.txt aside."""
    return [entry for entry in server.requests if not entry.url.endswith("/robots.txt")]


def start_workers(*bodies) -> list[threading.Thread]:
    """Run each body in a thread of its own, as a worker would: its own database connection,
    closed when the body ends. Join them with ``join_workers``."""
    def worker(body):
        try:
            body()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(body,)) for body in bodies]
    for thread in threads:
        thread.start()
    return threads


def join_workers(threads: list[threading.Thread], timeout: float = 30) -> None:
    for thread in threads:
        thread.join(timeout)


def start_rq_worker(queues: list[str], redis_url: str, var_dir: Path, proxy_url: str = "",
                    burst: bool = False, log_to: Path | None = None) -> subprocess.Popen:
    """A real `manage.py rqworker` on the test database, with quick crawl settings (politeness 0,
    finished after a second with nothing due, no chain watch); its output to ``log_to`` when given."""
    from tests.integration.test_two_workers import database_url_of_test_database

    env = dict(os.environ, DATABASE_URL=database_url_of_test_database(), REDIS_URL=redis_url,
               NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost", CRAWLER_HOST_INTERVAL="0",
               CRAWLER_IDLE_FINISH_SECONDS="1", CRAWLER_READ_TIMEOUT="5", CRAWLER_CHAIN_WATCH_SECONDS="0",
               WARC_DIR=str(var_dir / "warc"), VAR_DIR=str(var_dir))
    if proxy_url:
        env.update(HTTP_PROXY=proxy_url, http_proxy=proxy_url)
    output = open(log_to, "wb") if log_to else subprocess.DEVNULL  # the child holds its own copy
    try:
        return subprocess.Popen([sys.executable, "manage.py", "rqworker", *queues, *(["--burst"] if burst else [])],
                                cwd=Path(__file__).resolve().parents[2], env=env,
                                stdout=output, stderr=subprocess.STDOUT)
    finally:
        if log_to:
            output.close()
