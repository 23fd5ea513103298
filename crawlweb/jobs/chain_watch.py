"""Running crawls whose step chain is gone get it back, without an operator.

A crawl advances only while one of its crawl-step jobs is queued or running: each step enqueues
its successor. A Redis that restarts empty drops every queued step; a step that fails (PostgreSQL
down while it stored, Redis down while it enqueued its successor) or a worker killed mid-step ends
its chain. Each worker runs a watch thread that, every CRAWLER_CHAIN_WATCH_SECONDS, lists the
step jobs queued and started and enqueues the chains of a running crawl that has none, as
`crawl kick` would. One worker at a time looks (a Redis key held for the interval), and a crawl
must be seen without a chain twice in a row: a step between the queue and the started registry
is missed by one look, and extra chains, though harmless, are work for nothing.
"""
from __future__ import annotations

import logging
import threading

import django_rq
from django.conf import settings
from django.db import connections
from rq.registry import StartedJobRegistry

from crawlweb.jobs.crawl_step import crawl_step
from crawlweb.jobs.queueing import FOLLOW_UP_QUEUES, pending_crawl_jobs
from crawlweb.models import Crawl
from crawlweb.jobs.crawl_control import CrawlStateError, kick_crawl

log = logging.getLogger(__name__)
LOCK_KEY = "crawlweb:chain-watch"
STEP_FUNC = f"{crawl_step.__module__}.{crawl_step.__name__}"


def chainless(running: set[int], chained: set[int], seen_before: set[int]) -> tuple[set[int], set[int]]:
    """(crawls to revive now, crawls seen without a chain for the first time)."""
    missing = running - chained
    return missing & seen_before, missing - seen_before


def chained_crawls(queue) -> set[int]:
    """Ids of the crawls with a step job queued or started on ``queue``."""
    job_ids = list(queue.get_job_ids()) + list(StartedJobRegistry(queue=queue).get_job_ids())
    crawls = set()
    for job in queue.job_class.fetch_many(job_ids, connection=queue.connection):
        if job is not None and job.func_name == STEP_FUNC and job.args:
            crawls.add(int(job.args[0]))
    return crawls


class ChainWatch:
    """One worker's watch: a daemon thread that looks every ``interval_s`` seconds."""

    def __init__(self, interval_s: float):
        self.interval_s = interval_s
        self.seen_before: set[int] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="chain-watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval_s):
            try:
                self.look()
            except Exception as error:  # Redis or PostgreSQL down: the next look tries again
                log.warning("chain watch: %s: %s", type(error).__name__, error)
            finally:
                connections.close_all()  # this thread's connection: fresh after a database restart

    def look(self) -> list[int]:
        """Revive the chains of crawls found chainless twice in a row; returns their ids."""
        queue = django_rq.get_queue("crawl")
        if not queue.connection.set(LOCK_KEY, "1", nx=True, px=max(1, int(self.interval_s * 900))):
            return []  # another worker looked within this interval
        running = set(Crawl.objects.filter(state=Crawl.State.RUNNING).values_list("pk", flat=True))
        # A step may also wait on a follow-up queue: behind a long score queue (crawl_step's
        # _queue_for_next_step), or, with nothing to lease, behind the crawl's own follow-up jobs
        # (_wait_for_own_jobs: while they are pending, its chain is there).
        chained = set().union(*(chained_crawls(django_rq.get_queue(name)) for name in ("crawl", *FOLLOW_UP_QUEUES)))
        chained |= {crawl_id for crawl_id in running - chained if pending_crawl_jobs(crawl_id)}
        revive, self.seen_before = chainless(running, chained, self.seen_before)
        revived = []
        for crawl in Crawl.objects.filter(pk__in=revive):
            try:
                kick_crawl(crawl)
            except CrawlStateError:
                continue  # paused or finished meanwhile
            log.warning("crawl %s had no step job queued or running: its %s chain(s) enqueued again",
                        crawl.pk, crawl.parallel_steps)
            revived.append(crawl.pk)
        return revived


def start_chain_watch() -> ChainWatch | None:
    if not settings.REDIS_URL or not settings.CRAWLER_CHAIN_WATCH_SECONDS:
        return None
    watch = ChainWatch(settings.CRAWLER_CHAIN_WATCH_SECONDS)
    watch.start()
    return watch
