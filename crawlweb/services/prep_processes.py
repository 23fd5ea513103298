"""Page preparation in helper processes of the worker, beside its fetch threads.

Decoding, parsing, language identification, the tag signature and link normalization are pure
Python work. In the fetch threads they share the worker's one interpreter lock with the network
and the database writes: py-spy put them at about 40 % of a worker's CPU, all on one core while
the machine's other cores idled. CRAWLER_PREPARE_PROCESSES processes (default 1; 0 keeps the work
in the fetch threads) do it instead, so a worker uses two cores.

The processes never touch the database. A worker starts them before it runs any other thread
(CrawlWorker.work): then they are forked, a copy of a process that has Django set up already, and
only load the dictionaries (about 0.7 s, against 1.7 s for a fresh interpreter, which a short
crawl waited for). Started later, from a process that runs threads (the fetch threads, an
embedded crawl's thread), they are spawned: a fresh interpreter that sets Django up, because a
fork copies no thread but every lock another thread may hold. A pool
that breaks (a process killed, out of memory) is replaced, and the page in hand is prepared in
the calling thread, so a batch never loses a page to it. After MAX_RESTARTS breaks the worker
stops trying and prepares in its threads (a script that starts crawls without the
``if __name__ == "__main__":`` guard cannot spawn processes at all, see multiprocessing's docs).
"""
from __future__ import annotations

import dataclasses
import logging
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING

from django.conf import settings

if TYPE_CHECKING:  # a new process imports this module before Django is set up: nothing of Django's here
    from crawlweb.crawler.fetch import FetchResult
    from crawlweb.services.crawl_config import CrawlConfig
    from crawlweb.services.page_prep import PreparedPage

log = logging.getLogger(__name__)
_pool: ProcessPoolExecutor | None = None
_pool_pid: int | None = None  # the process that made the pool (a forked work horse makes its own)
_restarts = 0
_lock = threading.Lock()
MAX_RESTARTS = 3


def prepare(result: FetchResult, source_site: str, config: CrawlConfig) -> PreparedPage:
    """``prepare_page`` in a preparation process when the worker has them, else right here."""
    window_words = settings.CRAWLER_TEXT_WINDOW_WORDS
    pool = _current_pool()
    if pool is None:
        return _prepare(result, source_site, config, window_words)
    # The WARC exchanges repeat the body and are written already: they need not cross over.
    slim = dataclasses.replace(result, exchanges=[])
    try:
        return pool.submit(_prepare, slim, source_site, config, window_words).result()
    except BrokenProcessPool:
        _discard(pool)
        return _prepare(result, source_site, config, window_words)


def _prepare(result: FetchResult, source_site: str, config: CrawlConfig, window_words: int) -> PreparedPage:
    from crawlweb.services.page_prep import prepare_page

    return prepare_page(result, source_site, config, window_words=window_words)


def start() -> bool:
    """Start the processes now, so their set-up overlaps the worker's; False when there are none."""
    return _current_pool() is not None


def _current_pool() -> ProcessPoolExecutor | None:
    global _pool, _pool_pid
    count = settings.CRAWLER_PREPARE_PROCESSES
    if count <= 0:
        return None
    with _lock:
        if _restarts > MAX_RESTARTS:
            return None
        if _pool is None or _pool_pid != os.getpid():
            _pool = ProcessPoolExecutor(count, mp_context=multiprocessing.get_context(_start_method()),
                                        initializer=_set_up)
            _pool_pid = os.getpid()
            _pool.submit(int)  # a no-op that starts the processes now (see _start_method)
        return _pool


def _start_method() -> str:
    """fork while this process runs no other thread (forking then copies no half-held lock), else spawn.

    A fork-context pool starts all its processes at its first submit, before its own manager
    thread (concurrent.futures.process): _current_pool submits a no-op right after choosing."""
    forkable = "fork" in multiprocessing.get_all_start_methods()
    return "fork" if forkable and threading.active_count() == 1 else "spawn"


def _discard(pool: ProcessPoolExecutor) -> None:
    global _pool, _restarts
    with _lock:
        if _pool is pool:
            _pool, _restarts = None, _restarts + 1
            if _restarts > MAX_RESTARTS:
                log.error("page preparation processes broke %s times: pages are prepared in the fetch "
                          "threads from now on (CRAWLER_PREPARE_PROCESSES)", _restarts)
            else:
                log.warning("a page preparation process died; starting new ones (this page is "
                            "prepared in the fetch thread)")
    pool.shutdown(wait=False, cancel_futures=True)


def _set_up() -> None:
    """In a new preparation process: Django's settings (page preparation reads no database), and
    the models preparing needs. A forked process has Django set up already."""
    import django
    from django.apps import apps

    if not apps.ready:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "crawlweb.settings")
        django.setup()
    from crawlweb.services.page_prep import warm_up

    warm_up()


def process_ids() -> list[int]:
    """Process ids of this process's preparation processes (none before start() or the first page, or when off)."""
    with _lock:
        pool = _pool if _pool_pid == os.getpid() else None
    # The executor keeps its processes by pid; no public accessor exists.
    return sorted(pool._processes or {}) if pool is not None else []


def shutdown() -> None:
    """Stop this process's preparation processes (the next page starts new ones when enabled)."""
    global _pool, _restarts
    with _lock:
        pool, _pool, _restarts = _pool, None, 0
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
