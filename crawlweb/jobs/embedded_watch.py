"""The embedded mode's chain watch: no running crawl is left with nothing to run its steps.

Without REDIS_URL, a crawl's step chain lives in the in-process job threads of the process that
queued it (crawlweb/jobs/chain_runner.py), and dies with that process. Each process whose jobs
run in its own threads runs this watch, at once when it starts and then every
CRAWLER_CHAIN_WATCH_SECONDS:

- it renews the heartbeat of the crawls it runs (what a process on another machine goes by);
- a crawl it runs whose chain stopped (a step failed) gets its chains again once seen so twice in a
  row, as the RQ workers' chain watch does (a step between two queues is missed by one look);
- the long-lived processes (the web server, the demo) also take over the crawls whose process died:
  a crawl left running by a SIGKILLed demo runs again in the next one. A `crawl start` command does
  not: it would take another crawl's steps with it when it exits; it says so instead.

Taking over rather than pausing: the crawl was running when its process died and the operator never
asked it to stop; its leases expire and its Targets come back, so running it again loses nothing and
doubles nothing (leases decide who fetches), and a crawl left paused after a crash would wait for an
operator who may not look for days.
"""
from __future__ import annotations

import logging
import os
import threading

from django.conf import settings
from django.db import connections
from django.utils import timezone

from crawlweb.jobs.chain_watch import chainless
from crawlweb.models import Crawl
from crawlweb.process_identity import this_process
from crawlweb.jobs import chain_runner
from crawlweb.jobs.crawl_control import take_over_crawl

log = logging.getLogger(__name__)


class EmbeddedChainWatch:
    """One process's watch: a daemon thread that looks at once, then every ``interval_s`` seconds."""

    def __init__(self, interval_s: float, *, take_over_orphans: bool):
        self.interval_s = interval_s
        self.take_over_orphans = take_over_orphans
        self.seen_before: set[int] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="embedded-chain-watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=self.interval_s + 10)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self.look()
            except Exception as error:  # database locked, not migrated yet: the next look tries again
                log.warning("embedded chain watch: %s: %s", type(error).__name__, error)
            finally:
                connections.close_all()  # this thread's connection only
            self._stop.wait(self.interval_s)

    def look(self) -> list[int]:
        """Renew this process's heartbeats; run again the chains found stopped; returns their crawls' ids."""
        me = str(this_process())
        running = list(Crawl.objects.filter(state=Crawl.State.RUNNING))
        mine = {crawl.pk for crawl in running if crawl.runner == me}
        if mine:
            Crawl.objects.filter(pk__in=mine, runner=me).update(runner_seen_at=timezone.now())
        reasons = {crawl.pk: chain_runner.why_orphaned(crawl) for crawl in running
                   if crawl.pk in mine or self.take_over_orphans}
        stopped_here, self.seen_before = chainless(mine, {pk for pk in mine if not reasons[pk]}, self.seen_before)
        taken = []
        for crawl in running:
            if reasons.get(crawl.pk) and (crawl.pk in stopped_here or crawl.pk not in mine):
                if take_over_crawl(crawl, reasons[crawl.pk]):
                    taken.append(crawl.pk)
        return taken


_watch: EmbeddedChainWatch | None = None
_watch_pid = 0
_watch_lock = threading.Lock()


def start_embedded_watch(*, take_over_orphans: bool) -> EmbeddedChainWatch | None:
    """Start this process's watch when its jobs run in its own threads; None when they do not, when
    CRAWLER_CHAIN_WATCH_SECONDS is 0, or when a watch already runs here (whoever started it stops it)."""
    global _watch, _watch_pid
    if not chain_runner.runs_in_process_threads() or not settings.CRAWLER_CHAIN_WATCH_SECONDS:
        return None
    with _watch_lock:
        if _watch is not None and _watch_pid == os.getpid() and not _watch._stop.is_set():
            return None
        _watch, _watch_pid = EmbeddedChainWatch(settings.CRAWLER_CHAIN_WATCH_SECONDS,
                                                take_over_orphans=take_over_orphans), os.getpid()
        _watch.start()
        return _watch
