"""One code path, two modes: RQ through django-rq when REDIS_URL is set, in-process otherwise.

Job functions are module-level and take ids only, so both modes run the very same code.
In-process mode is either a background thread per queue ("thread", the default: the web
server stays responsive while a crawl runs) or a synchronous trampoline ("sync": the caller
runs the job and everything it enqueues, one after another, before enqueue returns).
"""
from __future__ import annotations

import inspect
import logging
import queue
import threading
import time
import traceback
import uuid
from collections import Counter, deque
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from django.conf import settings
from django.db import close_old_connections, connections, transaction

from crawlweb.jobs import rq_crawl_jobs

log = logging.getLogger(__name__)

QUEUE_NAMES = ("crawl", "score", "train")
# A crawl's follow-up jobs are its jobs on these queues (scoring, detection, placement, learning):
# the crawl's own steps are on "crawl".
FOLLOW_UP_QUEUES = ("score", "train")


def enqueue(func: Callable, *args, queue_name: str = "crawl", follow_up: bool = True) -> None:
    """Run ``func(*args)`` as a background job once the current transaction commits. A job of a
    crawl (job_crawl_id) on a follow-up queue counts among the crawl's pending follow-ups unless
    ``follow_up`` is False (a crawl step queued behind them, crawl_step._wait_for_own_jobs)."""
    if queue_name not in QUEUE_NAMES:
        raise ValueError(f"unknown queue {queue_name!r}; queues are {', '.join(QUEUE_NAMES)}")
    transaction.on_commit(lambda: _dispatch(func, args, queue_name, follow_up))


def uses_redis() -> bool:
    return bool(settings.REDIS_URL)


@lru_cache(maxsize=None)
def _takes_crawl_id(func: Callable) -> bool:
    try:
        parameters = list(inspect.signature(func).parameters)
    except (TypeError, ValueError):  # a callable without a signature belongs to no crawl
        return False
    return bool(parameters) and parameters[0] == "crawl_id"


def job_crawl_id(func: Callable, args: tuple) -> int | None:
    """The crawl a job works for: its first argument when the function names it ``crawl_id`` (every
    job of a crawl does; a training run's job takes ``run_id``), else None."""
    if not args or not _takes_crawl_id(func) or isinstance(args[0], bool) or not isinstance(args[0], int):
        return None
    return args[0]


def job_name(func: Callable) -> str:
    return getattr(func, "__name__", str(func))


def _dispatch(func: Callable, args: tuple, queue_name: str, follow_up: bool = True) -> None:
    if uses_redis():
        import django_rq  # imported here only so the embedded mode needs no Redis client set-up

        rq_queue = django_rq.get_queue(queue_name)
        job_id = uuid.uuid4().hex
        crawl_id = job_crawl_id(func, args)
        if crawl_id is not None and queue_name in FOLLOW_UP_QUEUES and follow_up:
            # noted before it is queued: a crawl step never sees it queued yet unknown
            rq_crawl_jobs.remember(rq_queue.connection, crawl_id, job_id)
        rq_queue.enqueue(
            func, *args, job_id=job_id, job_timeout=settings.JOB_TIMEOUT, result_ttl=3600, failure_ttl=7 * 86400,
        )
    elif settings.JOBS_INPROCESS_MODE == "sync":
        _run_synchronously(func, args, queue_name)
    else:
        in_process_worker(queue_name).submit(func, args)


# --- synchronous trampoline -------------------------------------------------------------
_sync_state = threading.local()


def _run_synchronously(func: Callable, args: tuple, queue_name: str) -> None:
    """Run the job now; jobs it enqueues run after it returns, so a self-re-enqueueing step
    loops instead of recursing."""
    backlog = getattr(_sync_state, "backlog", None)
    if backlog is not None:
        backlog.append((func, args, queue_name))
        return
    _sync_state.backlog = deque([(func, args, queue_name)])
    try:
        while _sync_state.backlog:
            job, job_args, _queue = _sync_state.backlog.popleft()
            _run_logged(job, job_args)
    finally:
        _sync_state.backlog = None


def _sync_backlog_of(crawl_id: int, queue_names: tuple[str, ...]) -> Counter:
    """Jobs of the crawl waiting in this thread's synchronous backlog (they run after the caller)."""
    backlog = getattr(_sync_state, "backlog", None) or ()
    return Counter(job_name(func) for func, args, queue_name in backlog
                   if queue_name in queue_names and job_crawl_id(func, args) == crawl_id)


def _run_logged(func: Callable, args: tuple) -> str | None:
    """Run the job; return its traceback when it failed, else None."""
    try:
        func(*args)
    except Exception:  # a failing job must not take the worker down; the job records its own error
        log.exception("job %s%r failed", getattr(func, "__name__", func), args)
        return traceback.format_exc()
    return None


def describe_call(func: Callable, args: tuple) -> str:
    """``module.function(args)``, as RQ shows a job."""
    return f"{func.__module__}.{getattr(func, '__name__', func)}({', '.join(map(repr, args))})"


# --- background thread worker ------------------------------------------------------------
@dataclass(frozen=True)
class InProcessState:
    """What the job health page shows of one in-process worker."""

    queue_name: str
    alive: bool
    current_job: str | None
    waiting: int
    finished: int
    failed: int
    last_failure: str  # the last failed job's call and traceback, "" when none failed


class InProcessWorker:
    """A daemon thread that runs one queue's jobs in order, like one RQ worker would."""

    def __init__(self, queue_name: str):
        self.queue_name = queue_name
        self._jobs: queue.Queue = queue.Queue()
        self._unfinished = 0
        self._idle = threading.Condition()
        self._current: str | None = None
        self._finished = self._failed = 0
        self._last_failure = ""
        self._by_crawl: Counter = Counter()  # (crawl id, job name) -> jobs waiting or running
        self._thread = threading.Thread(target=self._loop, name=f"jobs-{queue_name}", daemon=True)
        self._thread.start()

    def submit(self, func: Callable, args: tuple) -> None:
        global _submitted
        with self._idle:
            self._unfinished += 1
            self._by_crawl[job_crawl_id(func, args), job_name(func)] += 1
        with _workers_lock:
            _submitted += 1
        self._jobs.put((func, args))

    def wait_until_idle(self, timeout: float) -> bool:
        """True when every submitted job has finished within ``timeout`` seconds."""
        with self._idle:
            return self._idle.wait_for(lambda: self._unfinished == 0, timeout=timeout)

    def jobs_of(self, crawl_id: int) -> Counter:
        """Job name -> the crawl's jobs waiting or running on this queue."""
        with self._idle:
            return Counter({name: n for (crawl, name), n in self._by_crawl.items() if crawl == crawl_id and n > 0})

    def crawls(self) -> set[int]:
        """The crawls with a job waiting or running on this queue."""
        with self._idle:
            return {crawl for (crawl, _name), n in self._by_crawl.items() if crawl is not None and n > 0}

    def state(self) -> InProcessState:
        with self._idle:
            return InProcessState(self.queue_name, self._thread.is_alive(), self._current,
                                  self._unfinished - (self._current is not None), self._finished, self._failed,
                                  self._last_failure)

    def _loop(self) -> None:
        while True:
            func, args = self._jobs.get()
            close_old_connections()
            with self._idle:
                self._current = describe_call(func, args)
            try:
                failure = _run_logged(func, args)
                with self._idle:
                    self._finished += failure is None
                    if failure is not None:
                        self._failed += 1
                        self._last_failure = f"{self._current}\n{failure}"
            finally:
                # This thread's connections only: an idle worker thread should hold no connection
                # (persistent ones would outlive the job and keep a database from being dropped).
                connections.close_all()
                with self._idle:
                    self._current = None
                    self._unfinished -= 1
                    key = job_crawl_id(func, args), job_name(func)
                    self._by_crawl[key] -= 1
                    if not self._by_crawl[key]:
                        del self._by_crawl[key]  # the counter stays as small as the jobs waiting
                    self._idle.notify_all()


_workers: dict[str, InProcessWorker] = {}
_workers_lock = threading.Lock()
_submitted = 0  # jobs submitted to any in-process worker so far


def in_process_worker(queue_name: str) -> InProcessWorker:
    with _workers_lock:
        if queue_name not in _workers:
            _workers[queue_name] = InProcessWorker(queue_name)
        return _workers[queue_name]


def in_process_states() -> list[InProcessState]:
    """The in-process workers started so far (one per queue that has had a job), by queue name."""
    with _workers_lock:
        workers = sorted(_workers.values(), key=lambda worker: worker.queue_name)
    return [worker.state() for worker in workers]


def wait_for_in_process_jobs(timeout: float = 60.0) -> bool:
    """Block until every in-process worker is idle and no job was submitted meanwhile.

    One queue's last job may enqueue on another queue after that one looked idle, so idleness
    counts only when a full pass over the workers saw no new submission."""
    deadline = time.monotonic() + timeout
    while True:
        with _workers_lock:
            workers, submitted = list(_workers.values()), _submitted
        for worker in workers:
            if not worker.wait_until_idle(max(0.0, deadline - time.monotonic())):
                return False
        with _workers_lock:
            if _submitted == submitted and len(_workers) == len(workers):
                return True


def pending_crawl_jobs(crawl_id: int, queue_names: tuple[str, ...] = FOLLOW_UP_QUEUES) -> Counter:
    """Job name -> the crawl's jobs queued or running (by default its follow-ups: scoring,
    detection, placement, learning), in whichever mode jobs run. On RQ only the follow-up queues
    are tracked (rq_crawl_jobs)."""
    if uses_redis():
        import django_rq

        return rq_crawl_jobs.pending(django_rq.get_connection(FOLLOW_UP_QUEUES[0]), crawl_id)
    if settings.JOBS_INPROCESS_MODE == "sync":
        return _sync_backlog_of(crawl_id, queue_names)
    with _workers_lock:
        workers = [worker for name, worker in _workers.items() if name in queue_names]
    return sum((worker.jobs_of(crawl_id) for worker in workers), Counter())


def queue_behind_crawl_jobs(crawl_id: int) -> str | None:
    """On RQ: the follow-up queue on which one of the crawl's jobs still waits to be taken (the
    last such queue in FOLLOW_UP_QUEUES order), so a job queued there runs after it; else None."""
    if not uses_redis():
        return None
    import django_rq

    waiting = {job.queue for job in rq_crawl_jobs.pending_jobs(django_rq.get_connection(FOLLOW_UP_QUEUES[0]), crawl_id)
               if job.queued}
    return next((name for name in reversed(FOLLOW_UP_QUEUES) if name in waiting), None)


def jobs_waiting(queue_name: str) -> int:
    """On RQ: how many jobs wait in the queue (of every crawl); in-process queues are not counted (0)."""
    if not uses_redis():
        return 0
    import django_rq

    return django_rq.get_queue(queue_name).count


def crawls_with_pending_jobs() -> set[int]:
    """The crawls that have follow-up jobs queued or running now."""
    if uses_redis():
        import django_rq

        return rq_crawl_jobs.crawls(django_rq.get_connection(FOLLOW_UP_QUEUES[0]))
    with _workers_lock:
        workers = [worker for name, worker in _workers.items() if name in FOLLOW_UP_QUEUES]
    return set().union(*(worker.crawls() for worker in workers))


def describe_jobs(jobs: Counter) -> str:
    """"3 detect_site, 1 score_crawl" ("" when none)."""
    return ", ".join(f"{n} {name}" for name, n in sorted(jobs.items(), key=lambda item: (-item[1], item[0])))
