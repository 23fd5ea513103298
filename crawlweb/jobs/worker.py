"""The RQ worker class the project runs (settings.RQ["WORKER_CLASS"]).

RQ's default worker forks a fresh work horse for every job. A crawl step is a short job that
needs heavy state: the Hunspell dictionaries, the language identifier's model, the public-suffix
tree, the HTTP connection pool, the parsed robots.txt files, and for the classifier strategies
scikit-learn (loaded by the first step that needs it). A fresh fork rebuilt all of it for every step (about 2.7 s of a 5 s step, measured with
py-spy). This worker runs jobs in its own process and loads that state once, at start, or
starts its page preparation processes (crawlweb/services/prep_processes.py), which load it.

The price of not forking: a job that crashes the interpreter takes the worker with it. Jobs are
idempotent and leases expire, so nothing is lost (tests/integration/test_worker_killed.py), and
a supervisor restarts the worker like any other service. A chain watch thread
(crawlweb/jobs/chain_watch.py) puts back the step chains of crawls that lost theirs.
"""
from __future__ import annotations

import time

import redis
from django.db import close_old_connections
from rq import SimpleWorker

from crawlweb.services.allocator import release_free_memory
from crawlweb.jobs.chain_watch import start_chain_watch
from crawlweb.services import prep_processes
from crawlweb.services.page_prep import warm_up

REDIS_WAIT_MAX_S = 30.0  # longest pause between two tries to reach Redis again


class CrawlWorker(SimpleWorker):
    """An RQ worker that keeps its process (and what it loaded) from one job to the next."""

    def work(self, *args, **kwargs):
        if not prep_processes.start():  # with them, pages are prepared (and models loaded) there
            warm_up()
        watch = start_chain_watch()
        try:
            return super().work(*args, **kwargs)
        finally:
            if watch is not None:
                watch.stop()

    def execute_job(self, job, queue):
        # The worker's process outlives its jobs: a connection broken by a database restart (or
        # older than CONN_MAX_AGE) is dropped before the next job, as Django does between requests.
        close_old_connections()
        try:
            return super().execute_job(job, queue)
        except redis.exceptions.ConnectionError as error:
            # Redis went away while the job ran or ended: its bookkeeping is lost (with every queued
            # job, if Redis restarts empty), but the worker and what it loaded are not. It waits for
            # Redis instead of exiting; the chain watch puts the crawls' lost step chains back.
            self.log.error("Worker %s: lost Redis during job %s (%s); waiting for it", self.name, job.id, error)
            self._wait_for_redis()
        finally:
            close_old_connections()
            # Every job, not only crawl steps: a scoring job or a crawl-wide pass frees hundreds of MB
            # of loaded pages the allocator would otherwise keep (a pass peaked at 538 MB, allocator.py).
            release_free_memory()

    def _wait_for_redis(self) -> None:
        wait_s = 0.5
        while not self._stop_requested:
            try:
                self.connection.ping()
                return
            except redis.exceptions.ConnectionError:
                time.sleep(wait_s)
                wait_s = min(wait_s * 2, REDIS_WAIT_MAX_S)
