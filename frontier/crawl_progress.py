"""Follow a running crawl from a command: read its progress from the rows, show it, until it stops.

Used by `crawl start|resume|reharvest` (without --no-wait) and `experiment`; what is shown and how
(a live line on a terminal, plain lines in a log) is crawlweb.progress_display's job.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Callable

from django.conf import settings
from django.db import connection

from crawlweb.jobs.queueing import QUEUE_NAMES, describe_jobs, pending_crawl_jobs
from crawlweb.models import Crawl
from crawlweb.progress import Snapshot
from crawlweb.progress_display import ProgressDisplay, raw_stream
from frontier.models import SiteVerdict

POLL_SECONDS = 0.5


def display_for(stream, label: str) -> ProgressDisplay:
    """The progress display of a command writing to ``stream`` (its ``self.stdout``)."""
    return ProgressDisplay(raw_stream(stream), label=label, interval=settings.PROGRESS_LINE_SECONDS)


def crawl_snapshot(crawl: Crawl, *, since: float, base: int = 0) -> Snapshot:
    """Pages fetched against the budget, and the sites the BS Detector judged bilingual so far
    (two cheap queries: the crawl row and one count)."""
    crawl.refresh_from_db(fields=["state", "pages_fetched", "page_budget"])
    bilingual = SiteVerdict.objects.filter(crawl=crawl, bilingual=True).count()
    return Snapshot(done=crawl.pages_fetched, total=crawl.page_budget, elapsed=time.monotonic() - since,
                    state=crawl.state, found={"bilingual sites": bilingual}, base=base)


def follow_crawl(crawl: Crawl, display: ProgressDisplay, *, until: Callable[[Crawl], bool] | None = None,
                 wait: Callable[[float], None] = time.sleep, timeout: float | None = None) -> Snapshot:
    """Show the crawl's progress until it leaves the running state (or ``until(crawl)`` says so, or
    ``timeout`` seconds pass); returns the last snapshot. Ctrl-C propagates to the caller, which
    decides what it means (the crawl itself goes on)."""
    since = time.monotonic()
    crawl.refresh_from_db(fields=["pages_fetched"])
    base = crawl.pages_fetched
    done = until or (lambda c: c.state != Crawl.State.RUNNING)
    snapshot = crawl_snapshot(crawl, since=since, base=base)
    try:
        while not done(crawl) and (timeout is None or time.monotonic() - since < timeout):
            display.show(snapshot)
            wait(POLL_SECONDS)
            snapshot = crawl_snapshot(crawl, since=since, base=base)
    finally:
        display.close(snapshot)
    return snapshot


def wait_for_crawl_jobs(crawl: Crawl, write: Callable[[str], None], *, wait: Callable[[float], None] = time.sleep,
                        queue_names: tuple[str, ...] = QUEUE_NAMES) -> None:
    """Return once none of the crawl's jobs is queued or running, writing what is left whenever it
    changes. The embedded mode's jobs run in this process: a command that returned earlier took the
    crawl's last pairing pass and its site verdicts with it."""
    said = ""
    while jobs := pending_crawl_jobs(crawl.pk, queue_names):
        left = describe_jobs(jobs)
        if left != said:
            write(f"waiting for the crawl's follow-up jobs: {left}")
            said = left
        wait(POLL_SECONDS)
    if said:
        write("the crawl's follow-up jobs are done")


@contextmanager
def watching(crawl: Crawl, display: ProgressDisplay):
    """Show the crawl's progress from a thread while the block runs: for callers that run the crawl
    themselves (the experiment's synchronous mode, where starting the crawl returns at its end)."""
    stop = threading.Event()

    def watch() -> None:
        try:
            follow_crawl(crawl_copy, display, until=lambda _: stop.is_set(), wait=stop.wait)
        finally:
            connection.close()  # this thread's own database connection

    crawl_copy = Crawl.objects.get(pk=crawl.pk)  # refreshed by the thread; the caller's row stays its own
    thread = threading.Thread(target=watch, name=f"progress of crawl {crawl.pk}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
