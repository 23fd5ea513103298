"""The crawl step job: lease due Targets, fetch them concurrently, store, re-enqueue.

Safe to run twice and on any number of workers: leases decide who fetches what.
"""
from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from concurrent.futures import FIRST_COMPLETED, Future, wait

from django.conf import settings
from rq import get_current_job
from django.db import DatabaseError, OperationalError
from django.db.models import Q
from django.utils import timezone

from crawlweb.services.allocator import release_free_memory
from crawlweb.jobs.queueing import (describe_jobs, enqueue, jobs_waiting, pending_crawl_jobs, queue_behind_crawl_jobs,
                                    uses_redis)
from crawlweb.models import Crawl
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.followups import (StepResult, run_batch_followups, run_dry_followups, run_finish_followups,
                                        run_step_followups)
from crawlweb.services.leasing import hand_back_leases, in_flight, lease_batch, next_lease_in, room_read_afresh
from crawlweb.services.network import fetcher_for, warc_writer_for
from crawlweb.services.fetch_threads import DISK_FULL_ERRNOS, fetch_and_prepare, fetch_pool
from crawlweb.services.storing import host_interval, record_batch
from crawlweb.services import table_statistics
from crawlweb.tallies.fold import fold_tallies

log = logging.getLogger(__name__)
# How long an idle step waits for a host's politeness clock before handing over to the next job.
MAX_IDLE_WAIT_S = 1.0
# A step with nothing to lease sooner than this asks the dry follow-ups for more: longer than a polite
# host's interval (the crawl's own hosts are about to be due), shorter than a retry's backoff.
DRY_FOLLOWUPS_AFTER_S = 10.0
# How long the first page back waits for others to be stored with it (see _come_back).
STORE_PATIENCE_S = 0.2


def worker_id() -> str:
    """host:worker:unique — the RQ worker's name when run by RQ (its work horses change pid per job)."""
    job = get_current_job()
    if job is not None and job.worker_name:
        return f"{socket.gethostname()}:{job.worker_name}:{uuid.uuid4().hex[:8]}"
    return f"{in_process_lease_owners(socket.gethostname(), os.getpid())}{uuid.uuid4().hex[:8]}"


def in_process_lease_owners(host: str, pid: int) -> str:
    """The start of every lease owner of the steps run in process ``pid`` of ``host`` outside RQ."""
    return f"{host}:pid{pid}:"


def crawl_step(crawl_id: int) -> int:
    """Run one step of a crawl; returns the number of Targets leased."""
    crawl = Crawl.objects.filter(pk=crawl_id).first()
    if crawl is None or crawl.state != Crawl.State.RUNNING:
        return 0
    owner = worker_id()  # every lease this step takes: what it hands back if it fails
    try:
        leased = _step(crawl, owner)
    except OperationalError as error:
        if not is_transient_database_error(error):
            raise
        # PostgreSQL broke a deadlock with another job (e.g. priority updates) or SQLite stayed
        # locked: nothing was committed by the failed transaction, so the step simply runs again.
        log.warning("crawl %s step hit a transient database error, retrying: %s", crawl_id, error)
        Crawl.objects.filter(pk=crawl_id).update(last_error=f"retried after: {error}"[:5000])
        hand_back(crawl, owner)
        enqueue(crawl_step, crawl_id)
        return 0
    except OSError as error:
        if error.errno not in DISK_FULL_ERRNOS:
            Crawl.objects.filter(pk=crawl_id).update(last_error=f"{type(error).__name__}: {error}"[:5000])
            raise
        _pause_for_disk(crawl_id, error)
        hand_back(crawl, owner)
        return 0
    except Exception as error:
        Crawl.objects.filter(pk=crawl_id).update(last_error=f"{type(error).__name__}: {error}"[:5000])
        raise
    return leased




def _pause_for_disk(crawl_id: int, error: OSError) -> None:
    """A full disk (WARC files) pauses the crawl, saying where: nothing of the failed batch was stored
    or counted, and its Targets are handed back (crawl_step); going on would fail every batch.
    No successor is enqueued; `crawl resume` (or the dashboard's Resume) starts the chains again."""
    message = f"paused: {error}; free space there, then resume the crawl"
    log.error("crawl %s %s", crawl_id, message)
    Crawl.objects.filter(pk=crawl_id, state=Crawl.State.RUNNING).update(
        state=Crawl.State.PAUSED, status_message=message[:300], last_error=message[:5000])


TRANSIENT_DATABASE_ERRORS = ("deadlock detected", "could not serialize access", "database is locked")


def is_transient_database_error(error: Exception) -> bool:
    message = str(error).lower()
    return any(marker in message for marker in TRANSIENT_DATABASE_ERRORS)


def hand_back(crawl: Crawl, owner: str) -> None:
    """The failed step's fetches were not stored: their Targets are leasable again at once. Left
    leased, they held the crawl up for a whole lease (CRAWLER_LEASE_SECONDS): no step could take
    them, and none could finish the crawl (or, after a full disk, go on once resumed) meanwhile."""
    config = CrawlConfig.for_crawl(crawl)
    try:
        handed = hand_back_leases(crawl, owner, lambda host: host_interval(host, config))
    except OperationalError as error:  # the database is still in trouble: the leases expire instead
        log.warning("crawl %s could not hand back its step's leases: %s", crawl.pk, error)
        return
    log.info("crawl %s: %s Targets of the failed step are pending again", crawl.pk, handed)


def _step(crawl: Crawl, owner: str) -> int:
    """Lease, fetch and store for up to CRAWLER_STEP_SECONDS, then hand over to the next job.

    A stream, not a train of batches: up to two batches' worth of fetches are under way, and the
    job thread stores whatever has come back (at most a batch at a time) and leases more as room
    frees up. A host is thus free again as soon as its page is stored, not when the slowest page
    of its batch is: on a crawl of few hosts every host was otherwise held by the batch in hand."""
    config = CrawlConfig.for_crawl(crawl)
    pages_at_start = crawl.pages_fetched
    reason = end_reason(crawl)
    if reason:
        _finish(crawl, reason)
        return 0
    under_way = _lease_and_fetch(crawl, config, settings.CRAWLER_BATCH_SIZE, owner)
    if not under_way:
        wait_s = next_lease_in(crawl)
        dry = wait_s is None or wait_s > settings.CRAWLER_IDLE_FINISH_SECONDS
        # Not only when dry: a crawl whose only Targets are retries minutes ahead idled until they were
        # due while its strategy had more to give (a back/forward crawl of 20,000 sites, docs/scale.md).
        if (wait_s is None or wait_s > DRY_FOLLOWUPS_AFTER_S) and run_dry_followups(crawl):
            enqueue(crawl_step, crawl.pk)  # the strategy found more to fetch (frontier.strategies.refill)
            return 0
        if dry and _own_jobs_pending(crawl):
            _wait_for_own_jobs(crawl)
            return 0
        if dry:
            # Nothing left, or only Targets postponed far ahead (retries, an unreachable
            # robots.txt): finish now; starting the crawl again picks them up when due.
            _finish(crawl, dry_reason(wait_s))
            return 0
        time.sleep(min(max(wait_s - settings.CRAWLER_LEASE_LOOKAHEAD, 0.01), MAX_IDLE_WAIT_S))
        enqueue(crawl_step, crawl.pk)
        return 0
    leased, deadline = len(under_way), time.monotonic() + _step_seconds()
    widest = leased  # the most Targets one lease gave: few hosts to crawl when it stays small
    stored = StepResult(crawl.pk)
    try:
        while under_way:
            room = 2 * settings.CRAWLER_BATCH_SIZE - len(under_way)
            if time.monotonic() < deadline and room >= max(1, settings.CRAWLER_BATCH_SIZE // 2):
                more = _lease_and_fetch(crawl, config, min(room, settings.CRAWLER_BATCH_SIZE), owner)
                leased, under_way, widest = leased + len(more), under_way + more, max(widest, len(more))
            batch, under_way = _come_back(under_way)
            stored.add(_store(crawl, batch, config))
    finally:
        # A failed store leaves other fetches running: let them end before the step does (their
        # Targets stay leased: handed back by crawl_step after a transient database error or a full
        # disk, else they come back when the leases expire).
        for future in under_way:
            future.exception()
    # Not reached when a store failed: what the step stored before is scored by the crawl-wide
    # pass (evaluation.followup), at the latest when the crawl finishes.
    run_step_followups(crawl, stored)
    if widest < _thin_lease() and _room(crawl) >= settings.CRAWLER_BATCH_SIZE:
        run_dry_followups(crawl)  # more hosts while these few are crawled, not only once they are done
    fold_step_tallies(crawl.pk)
    _refresh_statistics_when_grown(crawl, pages_at_start)
    release_free_memory()  # the step's pages are stored: what their parsing freed goes back (allocator.py)
    enqueue(crawl_step, crawl.pk, queue_name=_queue_for_next_step(), follow_up=False)
    return leased


def _queue_for_next_step() -> str:
    """"crawl", or "score" when more than CRAWLER_SCORE_BACKLOG jobs wait there: the next step then
    queues behind them, so the crawl-first workers take their turn at them too before the crawl goes
    on. Scoring, the deep checks and the detector cost about what the steps do; with the steps always
    first on half the workers, the score queue fell further behind for as long as the crawl lasted
    (a thousand jobs, verdicts minutes late, at 100,000 pages)."""
    backlog = settings.CRAWLER_SCORE_BACKLOG
    return "score" if backlog and jobs_waiting("score") > backlog else "crawl"


def _refresh_statistics_when_grown(crawl: Crawl, before: int) -> None:
    """Plans that follow the crawl's growth where autovacuum does not (table_statistics.py): when the
    step took the crawl past a power of two of pages."""
    after = Crawl.objects.filter(pk=crawl.pk).values_list("pages_fetched", flat=True).first() or 0
    if table_statistics.due(before, after):
        table_statistics.refresh_stale_statistics()


def fold_step_tallies(crawl_id: int) -> None:
    """Fold the counts the step's writes left as deltas (crawlweb.tallies), so the dashboard's reads stay
    a few hundred rows. A fold that fails loses nothing (its deltas stay, and reads sum them): logged."""
    try:
        fold_tallies(crawl_id)
    except DatabaseError:
        log.exception("crawl %s: folding its tallies failed (the next step folds them)", crawl_id)


def _come_back(under_way: list[Future]) -> tuple[list[Future], list[Future]]:
    """The fetches to store now, in lease order, and the rest: at most a batch, and once half a
    batch is back (or all that is under way), or STORE_PATIENCE_S after the first came back.

    Waiting for a few more pages saves a store's fixed cost (a dozen statements) per page or two;
    waiting for the whole batch would hold every host of it until its slowest page is in."""
    batch_size = settings.CRAWLER_BATCH_SIZE
    enough = min(len(under_way), max(1, batch_size // 2))
    done, waiting = wait(under_way, return_when=FIRST_COMPLETED)
    give_up = time.monotonic() + STORE_PATIENCE_S
    while len(done) < enough and waiting and (left := give_up - time.monotonic()) > 0:
        more, waiting = wait(waiting, timeout=left, return_when=FIRST_COMPLETED)
        done |= more
    back = [future for future in under_way if future.done()][:batch_size]
    taken = set(back)
    return back, [future for future in under_way if future not in taken]


def _step_seconds() -> float:
    """One batch per job when jobs run synchronously: there the follow-up jobs a batch queued
    (placement, the BS Detector, scoring) run only between steps, and the crawl must not outrun them."""
    if not uses_redis() and settings.JOBS_INPROCESS_MODE == "sync":
        return 0.0
    return settings.CRAWLER_STEP_SECONDS


def _own_jobs_pending(crawl: Crawl) -> bool:
    """Whether the crawl's own follow-up jobs (the BS Detector's, placement, scoring, learning) are
    queued or running: they may add Targets (a bilingual site's backlinks, deep-page guesses), so a
    crawl with nothing to lease is not out of work while they wait. A second crawl started while the
    first one's scoring filled the queue finished after its 4 seed pages, "frontier empty", its
    detector jobs still queued behind. Synchronous jobs the step enqueued run after it returns: the
    step just goes to the back of that line."""
    pending = pending_crawl_jobs(crawl.pk)
    if pending:
        log.debug("crawl %s: nothing to lease, waiting for %s", crawl.pk, describe_jobs(pending))
    return bool(pending)


def _wait_for_own_jobs(crawl: Crawl) -> None:
    """Look again once the crawl's follow-up jobs had their turn. On RQ the next step queues behind
    them on their own queue (FIFO): a worker that takes queue "crawl" first (`rqworker crawl score`,
    a burst worker over QUEUE_NAMES) would otherwise run nothing but steps that look and re-queue.
    In-process each queue has its own thread, so a second's pause is enough; synchronous jobs
    the step enqueued run before its successor anyway."""
    behind = queue_behind_crawl_jobs(crawl.pk)
    if behind:
        enqueue(crawl_step, crawl.pk, queue_name=behind, follow_up=False)
        return
    if _step_seconds() > 0.0:  # they run beside the steps (or on other workers): give them a moment
        time.sleep(MAX_IDLE_WAIT_S)
    enqueue(crawl_step, crawl.pk)


def _thin_lease() -> int:
    """A step whose every lease came back with fewer Targets than this (out of a batch) had few hosts to
    crawl: the dry follow-ups are asked for more too. A back/forward crawl's end went on 2 hosts of big
    bilingual sites (15 pages/s) while 1,700 pages of other such sites stayed held for the refill, which
    ran only once nothing at all was due (docs/scale.md)."""
    return max(2, settings.CRAWLER_BATCH_SIZE // 4)


def _lease_and_fetch(crawl: Crawl, config: CrawlConfig, limit: int, owner: str) -> list[Future]:
    """Lease up to ``limit`` Targets within the budget and start their fetches; returns their
    futures (none when the crawl was paused, stopped or spent its budget meanwhile)."""
    room = min(limit, _room(crawl))
    if room <= 0:
        return []
    leases = lease_batch(crawl, owner, room, settings.CRAWLER_LEASE_SECONDS)
    fetcher, warc = fetcher_for(config.address_policy), warc_writer_for(crawl.pk)
    return [fetch_pool().submit(fetch_and_prepare, fetcher, lease, config, warc) for lease in leases]


def _store(crawl: Crawl, batch: list[Future], config: CrawlConfig) -> StepResult:
    step = StepResult(crawl.pk)
    record_batch(crawl, [future.result() for future in batch], config, step)
    run_batch_followups(crawl, step)
    return step


def _room(crawl: Crawl) -> int:
    """Pages the crawl may still start (leasing.room_read_afresh), 0 unless it is running."""
    room = room_read_afresh(crawl)
    if room is None or crawl.state != Crawl.State.RUNNING or crawl.time_is_up:
        return 0
    return room


def end_reason(crawl: Crawl) -> str:
    """Why the crawl must end now ("" when it goes on): its page budget or its time limit."""
    if crawl.budget_left <= 0:
        return f"page budget spent ({crawl.pages_fetched} of {crawl.page_budget} pages)"
    if crawl.time_is_up:
        return f"time limit reached ({crawl.time_limit_seconds} s), {crawl.pages_fetched} pages fetched"
    return ""


def dry_reason(wait_s: float | None) -> str:
    if wait_s is None:
        return "frontier empty: no Target left to fetch"
    return (f"frontier empty: nothing due within {settings.CRAWLER_IDLE_FINISH_SECONDS:g} s "
            "(Targets postponed for retries stay pending; starting the crawl again picks them up)")


def _finish(crawl: Crawl, reason: str) -> None:
    """Mark the crawl finished, saying why: nothing left to fetch, the budget spent or the time up."""
    still_leased = in_flight(crawl).exists()
    if still_leased:
        enqueue(crawl_step, crawl.pk)  # another worker is mid-fetch; look again after it
        time.sleep(MAX_IDLE_WAIT_S / 4)
        return
    finished = Crawl.objects.filter(Q(pk=crawl.pk), Q(state=Crawl.State.RUNNING)).update(
        state=Crawl.State.FINISHED, finished_at=timezone.now(), status_message=reason[:300])
    if finished:  # this step moved it: its follow-ups run once, here
        log.info("crawl %s finished: %s", crawl.pk, reason)
        fold_step_tallies(crawl.pk)
        run_finish_followups(crawl)
