"""Lowering HostQueue rows to what their Targets say: the half of their upkeep the triggers leave.

A trigger raises a row when a Target of its host becomes pending or better (frontier.host_queue_
triggers); lowering needs the host's remaining Targets, so it is done here, for rows the caller
holds locked (SELECT … FOR UPDATE), and in a statement of its own: under READ COMMITTED that
statement sees every Target committed by a writer that held the row before (a writer raising a
row keeps it locked until it commits, and one coming after waits for this transaction, then raises
what this one lowered). The statement that found and locked the rows cannot be trusted for this:
its snapshot is older than its locks. Rows are never deleted here: an empty row (nothing pending)
is left out of the lease order's partial indexes, and a Target made pending fills it again.

Each refresh reads, per row, the first entry of two indexes: the host's best pending Target
(target_host_best, past the postponed ones above it) and its first postponed one (target_postponed).
Both are computed with this worker's clock, so a row never loses a postponed Target to clock skew
between the machines (or the database server) that wrote the Target and read it.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import connection
from django.db.models import Q

from crawlweb.models import HostQueue

# The pending Targets of row q (of its crawl, host and queue, as the triggers assign a Target to a
# queue: frontier.strategies.queues), due now or postponed (one parameter each: now).
_ROW_TARGETS = ("t.crawl_id = q.crawl_id AND t.host_id = q.host_id AND t.state = 'pending'"
                " AND (CASE WHEN t.origin = 'backlink' THEN 'backlink' ELSE 'forward' END) = q.queue")
ROW_TARGETS_DUE = _ROW_TARGETS + " AND (t.due_at IS NULL OR t.due_at <= %s)"
ROW_TARGETS_POSTPONED = _ROW_TARGETS + " AND t.due_at > %s"
# Rows woken before a batch (a host free again, a postponed Target due): at most this many per
# batch (the rest wait for the next ones), so a burst of them cannot hold up one lease.
WAKE_LIMIT = 128

# A row's best Target due now (target_host_best, past the postponed ones above it) and its first
# postponed one (target_postponed); rows only put to sleep are not read again (CASE evaluates its
# branches lazily).
_BEST_DUE = f"(SELECT t.priority FROM frontier_target t WHERE {ROW_TARGETS_DUE} ORDER BY t.priority DESC LIMIT 1)"
_FIRST_POSTPONED = f"(SELECT t.due_at FROM frontier_target t WHERE {ROW_TARGETS_POSTPONED} ORDER BY t.due_at LIMIT 1)"


def refresh(row_ids: Iterable[int], now: datetime, *, served: Iterable[int] = (),
            asleep: dict[int, datetime] | None = None) -> int:
    """In the caller's transaction, set each row (locked by the caller) to its Targets: the best
    priority of those due now and the earliest due time of those postponed (None when there are
    none: a row with neither stays, empty, until a Target raises it again). In the same write:
    rows in ``served`` (hosts leased now) get ``served_at`` now; rows in ``asleep`` are only put to
    sleep until the time given. One UPDATE; returns how many rows it wrote."""
    asleep = asleep or {}
    row_ids = sorted(set(row_ids) | set(asleep))
    if not row_ids:
        return 0
    when = connection.ops.adapt_datetimefield_value
    params: list = []
    if asleep:
        kept = f"q.id IN ({_marks(list(asleep))})"
        sets = [f"best_priority = CASE WHEN {kept} THEN q.best_priority ELSE {_BEST_DUE} END",
                f"wake_at = CASE WHEN {kept} THEN q.wake_at ELSE {_FIRST_POSTPONED} END"]
        params += [*asleep, when(now), *asleep, when(now)]
    else:
        sets = [f"best_priority = {_BEST_DUE}", f"wake_at = {_FIRST_POSTPONED}"]
        params += [when(now), when(now)]
    served = sorted(set(served))
    if served:
        sets.append(f"served_at = CASE WHEN q.id IN ({_marks(served)}) THEN %s ELSE q.served_at END")
        params += [*served, when(now)]
    if asleep:
        sets.append(f"asleep_until = CASE q.id{' WHEN %s THEN %s' * len(asleep)} ELSE q.asleep_until END")
        for row_id, until in asleep.items():
            params += [row_id, when(until)]
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE frontier_hostqueue AS q SET {', '.join(sets)} WHERE q.id IN ({_marks(row_ids)})",
                       params + row_ids)
        return cursor.rowcount


def wake_due_rows(crawl_id: int, now: datetime, lookahead: timedelta) -> int:
    """In the caller's transaction, wake the crawl's rows (those no other transaction holds) whose
    hosts' clocks run out by ``now + lookahead``, and refresh those whose postponed Targets have
    fallen due. Returns how many rows it wrote."""
    horizon = now + lookahead
    woken = list(HostQueue.objects.select_for_update(skip_locked=True)
                 .filter(Q(wake_at__lte=now) | Q(asleep_until__lte=horizon), crawl_id=crawl_id)
                 .values_list("pk", flat=True)[:WAKE_LIMIT])
    if not woken:
        return 0
    when = connection.ops.adapt_datetimefield_value
    # A sleeping row stayed an upper bound of its Targets (a new one raised it): only the rows
    # whose postponed Targets fell due are read again. SET sees the row as it was.
    sql = (f"UPDATE frontier_hostqueue AS q SET"
           f" best_priority = CASE WHEN q.wake_at <= %s THEN {_BEST_DUE} ELSE q.best_priority END,"
           f" wake_at = CASE WHEN q.wake_at <= %s THEN {_FIRST_POSTPONED} ELSE q.wake_at END,"
           f" asleep_until = CASE WHEN q.asleep_until <= %s THEN NULL ELSE q.asleep_until END"
           f" WHERE q.id IN ({_marks(woken)})")
    with connection.cursor() as cursor:
        cursor.execute(sql, [when(now), when(now), when(now), when(now), when(horizon), *woken])
        return cursor.rowcount


def lock_rows_of_targets(crawl_id: int, target_ids: Iterable[int]) -> None:
    """Lock the rows of these Targets' hosts, in key order, until the caller's transaction ends.

    A lease batch locks rows, then its Targets; an UPDATE of Targets' priorities locks the Targets,
    then (raising them, by trigger) their rows: two writers over one host in opposite orders, a
    deadlock. A priority writer that takes the rows first keeps one order; leasing skips rows held
    (SKIP LOCKED), so it never waits for such a writer, which only waits for a lease to commit."""
    ids = sorted(set(target_ids))
    if not ids or connection.vendor != "postgresql":
        return  # SQLite: one writer at a time anyway
    with connection.cursor() as cursor:  # one array parameter: a re-scored frontier has 100,000s of ids
        cursor.execute("SELECT q.id FROM frontier_hostqueue q WHERE q.crawl_id = %s AND q.host_id IN"
                       " (SELECT t.host_id FROM frontier_target t WHERE t.id = ANY(%s))"
                       " ORDER BY q.crawl_id, q.host_id, q.queue FOR UPDATE OF q", [crawl_id, ids])


def _marks(values: list) -> str:
    return ", ".join(["%s"] * len(values))
