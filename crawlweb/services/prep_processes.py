"""Page preparation in helper processes of the worker, beside its fetch threads.

Decoding, parsing, language identification, the tag signature and link normalization are pure
Python work. In the fetch threads they share the worker's one interpreter lock with the network
and the database writes: py-spy put them at about 40 % of a worker's CPU, all on one core while
the machine's other cores idled. CRAWLER_PREPARE_PROCESSES processes (default 1; 0 keeps the work
in the fetch threads) do it instead, so a worker uses two cores.

The processes never load Django (page_prep.py is pure): they are given the page, its site and
the crawl's PageOptions, and load only the dictionaries, the language model and the suffix list,
about 1.3 s, most of it the Serbian Hunspell dictionaries. ``manage.py rqworker`` starts them
first thing (start_for_worker), so that they load while the worker loads Django (about 1 s), not
after it: a short crawl's first pages waited for them. They are forked while the process runs
no other thread; started later, from a process that runs threads (the fetch threads, an embedded
crawl's thread), they are spawned, a fresh interpreter, because a fork copies no thread but every
lock another thread may hold. A pool
that breaks (a process killed, out of memory) is replaced, and the page in hand is prepared in
the calling thread, so a batch never loses a page to it. A pool is also replaced when one of its
processes has grown by CRAWLER_PREPARE_PROCESS_GROWTH_MB since its first pages (its resident size
read from /proc every CHECK_EVERY_PAGES pages), its processes ending once their pages are done: a long-lived preparation process could
grow with the pages it had seen (memory its allocator and C libraries kept, on the fuzzer's hostile
pages about 0.13 MB a page). It was replaced every 500 pages before, whatever its size: on ordinary
pages it hardly grows, and each new pool's warm-up held the fetch threads' pages 1.3 s, a third of
the crawl step's time per page at scale (docs/scale.md). After MAX_RESTARTS breaks the worker
stops trying and prepares in its threads (a script that starts crawls without the
``if __name__ == "__main__":`` guard cannot spawn processes at all, see multiprocessing's docs).
"""
from __future__ import annotations

import dataclasses
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING

from django.conf import settings  # the settings alone: this module loads before Django is set up

from crawlweb.services.page_prep import PageOptions, PreparedPage, prepare_page, warm_up

if TYPE_CHECKING:
    from crawlweb.crawler.fetch import FetchResult
    from crawlweb.services.crawl_config import CrawlConfig

log = logging.getLogger(__name__)
_pool: ProcessPoolExecutor | None = None
_pool_pid: int | None = None  # the process that made the pool (a forked work horse makes its own)
_restarts = 0
_worker_count: int | None = None  # this worker's own count, set from its queues (start_for_worker)
_prepared = 0  # pages the current pool was given
_first_sizes: dict[int, float] = {}  # resident MB of the current pool's processes at their first check
_lock = threading.Lock()
MAX_RESTARTS = 3
# A pool's processes' resident size is read every this many pages (a /proc read each): a process grows
# by well under 1 MB a page, so it passes its limit by a few MB at most.
CHECK_EVERY_PAGES = 25
PARENT_CHECK_S = 1.0  # how often a preparation process checks that the process it serves still runs


def prepare(result: FetchResult, source_site: str, config: CrawlConfig, loaded_by: str | None = None) -> PreparedPage:
    """``prepare_page`` in a preparation process when the worker has them, else right here."""
    window_words = settings.CRAWLER_TEXT_WINDOW_WORDS
    pool = _current_pool()
    if pool is None:
        return prepare_page(result, source_site, config, window_words=window_words, loaded_by=loaded_by)
    # The WARC exchanges repeat the body and are written already: they need not cross over.
    slim = dataclasses.replace(result, exchanges=[])
    try:
        future = pool.submit(prepare_page, slim, source_site, PageOptions.of(config), window_words=window_words,
                             loaded_by=loaded_by)
    except RuntimeError:  # another fetch thread retired this pool (_count_page) after we took it: no page lost
        return prepare_page(result, source_site, config, window_words=window_words, loaded_by=loaded_by)
    try:
        return future.result()
    except BrokenProcessPool:
        _discard(pool)
        return prepare_page(result, source_site, config, window_words=window_words, loaded_by=loaded_by)
    finally:
        _count_page(pool)


def start() -> bool:
    """Start the processes now, so their set-up overlaps the worker's; False when there are none."""
    return _current_pool() is not None


# Worker classes that run jobs in the worker's own process, which keeps the pool started early.
PROCESS_KEEPING_WORKERS = ("CrawlWorker", "SimpleWorker")


def start_for_worker(argv: list[str]) -> None:
    """From ``manage.py rqworker``, before Django loads: with a worker class that keeps its
    process (crawlweb.jobs.worker.CrawlWorker by default) the preparation processes start now.
    A worker whose first queue is "score" has CRAWLER_SCORE_WORKER_PREPARE_PROCESSES of them.

    A forking worker class (rq.Worker) would make a pool in each work horse: none here then."""
    global _worker_count
    worker_class = settings.RQ.get("WORKER_CLASS", "")
    for index, arg in enumerate(argv):
        if arg == "--worker-class" and index + 1 < len(argv):
            worker_class = argv[index + 1]
        elif arg.startswith("--worker-class="):
            worker_class = arg.partition("=")[2]
    if _first_queue(argv[2:]) == "score":
        _worker_count = settings.CRAWLER_SCORE_WORKER_PREPARE_PROCESSES
    if worker_class.rpartition(".")[2] in PROCESS_KEEPING_WORKERS:
        start()


# rqworker's options (django-rq's and Django's) that may take their value as the next word.
_VALUED_OPTIONS = {"--worker-class", "--pid", "--name", "--queue-class", "--job-class", "--worker-ttl", "--max-jobs",
                   "--max-idle-time", "--serializer", "--settings", "--pythonpath", "-v", "--verbosity"}


def _first_queue(words: list[str]) -> str | None:
    """The first queue named among rqworker's arguments (its positional words)."""
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word in _VALUED_OPTIONS:
            skip = True
        elif not word.startswith("-"):
            return word
    return None


def _current_pool() -> ProcessPoolExecutor | None:
    global _pool, _pool_pid, _prepared
    count = settings.CRAWLER_PREPARE_PROCESSES if _worker_count is None else _worker_count
    if count <= 0:
        return None
    with _lock:
        if _restarts > MAX_RESTARTS:
            return None
        if _pool is None or _pool_pid != os.getpid():
            _pool = ProcessPoolExecutor(count, mp_context=multiprocessing.get_context(_start_method()),
                                        initializer=_set_up)
            _pool_pid, _prepared = os.getpid(), 0
            _first_sizes.clear()
            _pool.submit(int)  # a no-op that starts the processes now (see _start_method)
        return _pool


def _start_method() -> str:
    """fork while this process runs no other thread (forking then copies no half-held lock), else spawn.

    A fork-context pool starts all its processes at its first submit, before its own manager
    thread (concurrent.futures.process): _current_pool submits a no-op right after choosing."""
    forkable = "fork" in multiprocessing.get_all_start_methods()
    return "fork" if forkable and threading.active_count() == 1 else "spawn"


def _count_page(pool: ProcessPoolExecutor) -> None:
    """Every CHECK_EVERY_PAGES pages, a pool one of whose processes has grown by
    CRAWLER_PREPARE_PROCESS_GROWTH_MB since the first check is retired: the next page starts new
    processes; the old ones finish the pages they hold, then exit."""
    global _pool, _prepared
    with _lock:
        if _pool is not pool:
            return
        _prepared += 1
        if _prepared % CHECK_EVERY_PAGES or not _grown_past_limit(pool):
            return
        log.info("a page preparation process grew by CRAWLER_PREPARE_PROCESS_GROWTH_MB in %s pages: "
                 "starting a new one", _prepared)
        _pool, _prepared = None, 0
    pool.shutdown(wait=False)


def _grown_past_limit(pool: ProcessPoolExecutor) -> bool:
    """Growth, not size: a process's warm-up size depends on the language pair's dictionaries and
    models (about 130 MB for Serbian–English), and a limit below it would replace it at every check."""
    growth = settings.CRAWLER_PREPARE_PROCESS_GROWTH_MB
    for pid in _ids_of(pool):
        size = resident_mb(pid)
        if size - _first_sizes.setdefault(pid, size) > growth:
            return True
    return False


def resident_mb(pid: int) -> float:
    """A process's resident size in MB, from /proc (0 where it cannot be read: the process gone, or no
    /proc, where pools are then never replaced for their size)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE_SIZE / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


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
    """In a new preparation process: load what preparing needs, before the first page comes."""
    _end_with_parent(os.getppid())
    warm_up()


def _end_with_parent(parent: int) -> None:
    """Exit once the process this one serves is gone. A process killed with SIGKILL (or ended by
    SIGTERM's default action) shuts no pool down: its preparation processes, handed to init, waited
    for pages forever, about 150 MB each, after every killed worker, demo or `crawl start`."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


def process_ids() -> list[int]:
    """Process ids of this process's preparation processes (none before start() or the first page, or when off)."""
    with _lock:
        pool = _pool if _pool_pid == os.getpid() else None
    return _ids_of(pool)


def _ids_of(pool: ProcessPoolExecutor | None) -> list[int]:
    # The executor keeps its processes by pid; no public accessor exists.
    return sorted(pool._processes or {}) if pool is not None else []


def shutdown() -> None:
    """Stop this process's preparation processes (the next page starts new ones when enabled)."""
    global _pool, _restarts
    with _lock:
        pool, _pool, _restarts = _pool, None, 0
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
