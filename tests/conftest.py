"""Shared fixtures: the bundled test web on a loopback proxy, crawl settings, and a job runner
that works in both modes (RQ on real Redis, or in-process)."""
from __future__ import annotations

from contextlib import contextmanager

import pytest

from crawlweb.devdata import shared_data_dir

SHARED_DATA = shared_data_dir()
# Every way jobs can run: RQ on real Redis, an in-process thread, synchronously in the caller.
JOB_MODES = [pytest.param("rq", marks=pytest.mark.services), "thread", "sync"]


def set_job_mode(settings, mode: str) -> str:
    if mode == "rq":
        settings.REDIS_URL = settings.RQ_QUEUES["crawl"]["URL"]
    else:
        settings.REDIS_URL = None
        settings.JOBS_INPROCESS_MODE = mode
    return mode


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing():
    """The tests' accounts hash their passwords with MD5 (Django's advice for test runs): PBKDF2's
    million rounds per account made and per login were a fifth of the embedded pass's CPU. A login
    checks a password the same way; only the hash is cheaper. Deployed settings are untouched."""
    from django.test.utils import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item, nextitem):
    """Before the test's fixtures are torn down (and its database flushed), end what it left running
    on an in-process worker thread: a crawl step still writing would block the flush and fail every
    later test that uses the database."""
    from crawlweb.jobs.queueing import in_process_states, wait_for_in_process_jobs

    if not any(state.current_job or state.waiting for state in in_process_states()):
        return
    from crawlweb.models import Crawl
    from crawlweb.jobs.crawl_control import stop_crawl

    for crawl in Crawl.objects.filter(state__in=[Crawl.State.RUNNING, Crawl.State.PAUSED]):
        stop_crawl(crawl)
    assert wait_for_in_process_jobs(120), f"{item.nodeid} left in-process jobs that did not finish in 120 s"


@pytest.fixture(params=JOB_MODES)
def job_mode(request, settings, empty_queues):
    """Run the test once per job mode."""
    return set_job_mode(settings, request.param)


@pytest.fixture(scope="session")
def test_web_server():
    from crawlweb.testweb.generator import generate_web
    from crawlweb.testweb.server import TestWebServer

    server = TestWebServer(generate_web(seed=3, size=30, pages_per_site=8), host="127.0.0.1", port=0)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def through_test_web(test_web_server, monkeypatch):
    """Route the crawler's requests through the test web proxy, as HTTP_PROXY does for any crawler."""
    from crawlweb.services.network import fetcher_for

    route_through(test_web_server, monkeypatch)
    test_web_server.clear_log()
    yield test_web_server
    fetcher_for.cache_clear()


def route_through(server, monkeypatch) -> None:
    """Send the crawler's requests to ``server``'s proxy (HTTP_PROXY, loopback exempt), with a fresh
    Fetcher, which reads the proxy settings once. ``monkeypatch`` undoes the environment."""
    from crawlweb.services.network import fetcher_for

    for name in ("HTTP_PROXY", "http_proxy"):
        monkeypatch.setenv(name, server.proxy_url)
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.setenv(name, "127.0.0.1,localhost,::1")
    fetcher_for.cache_clear()


@pytest.fixture
def crawl_settings(settings, tmp_path):
    settings.WARC_DIR = tmp_path / "warc"
    settings.CRAWLER_HOST_INTERVAL = 0.0
    settings.CRAWLER_READ_TIMEOUT = 5.0
    settings.CRAWLER_BATCH_SIZE = 16
    settings.CRAWLER_IDLE_FINISH_SECONDS = 3.0
    return settings


@pytest.fixture
def run_jobs():
    """Run queued jobs to the end: a burst RQ worker on real Redis, or wait for the in-process worker."""
    from crawlweb.jobs.queueing import QUEUE_NAMES, uses_redis, wait_for_in_process_jobs

    def run(timeout: float = 120.0) -> None:
        if uses_redis():
            import django_rq
            from rq import SimpleWorker

            queues = [django_rq.get_queue(name) for name in QUEUE_NAMES]
            SimpleWorker(queues, connection=queues[0].connection).work(burst=True)
        else:
            assert wait_for_in_process_jobs(timeout), "in-process jobs did not finish in time"

    return run


@pytest.fixture
def empty_queues():
    """Start from empty RQ queues (only meaningful when REDIS_URL is set)."""
    from crawlweb.jobs.queueing import QUEUE_NAMES, uses_redis

    if uses_redis():
        import django_rq

        for name in QUEUE_NAMES:
            django_rq.get_queue(name).empty()
    yield


@contextmanager
def crawl_outside_tests(server, django_db_blocker, warc_dir, make_crawl, *, read_timeout: float = 5.0):
    """A real crawl through ``server``'s proxy, made once for many tests: ``make_crawl()`` creates and
    runs it (jobs synchronous, follow-ups on, as a user's crawl runs) and returns it finished. Its rows
    are committed outside any test transaction, so each test reads them and rolls its own changes back;
    at the end the crawl, and the sites and seed lists it made, are deleted."""
    from django.test import override_settings

    from crawlweb.models import Crawl, SeedList, Site
    from crawlweb.services.network import close_warc_writers, fetcher_for

    mp = pytest.MonkeyPatch()
    route_through(server, mp)
    overrides = override_settings(REDIS_URL=None, JOBS_INPROCESS_MODE="sync", CRAWLER_HOST_INTERVAL=0.0,
                                  CRAWLER_READ_TIMEOUT=read_timeout, CRAWLER_BATCH_SIZE=16,
                                  CRAWLER_IDLE_FINISH_SECONDS=3.0, WARC_DIR=warc_dir)
    overrides.enable()
    close_warc_writers()  # a writer cached for a reused crawl id would write to another test's folder
    try:
        with django_db_blocker.unblock():
            sites_before = set(Site.objects.values_list("pk", flat=True))
            seed_lists_before = set(SeedList.objects.values_list("pk", flat=True))
            crawl = make_crawl()
        yield crawl
        with django_db_blocker.unblock():
            Crawl.objects.filter(pk=crawl.pk).delete()
            Site.objects.exclude(pk__in=sites_before).delete()
            SeedList.objects.exclude(pk__in=seed_lists_before).delete()
    finally:
        close_warc_writers()
        overrides.disable()
        mp.undo()
        fetcher_for.cache_clear()
