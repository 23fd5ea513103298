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

from frontier.models import HostQueue

# The pending Targets of row q (of its crawl, host and queue, as the triggers assign a Target to a
# queue: frontier.strategies.queues), due now or postponed (one parameter each: now).
_ROW_TARGETS = ("t.crawl_id = q.crawl_id AND t.host_id = q.host_id AND t.state = 'pending'"
                " AND (CASE WHEN t.origin = 'backlink' THEN 'backlink' ELSE 'forward' END) = q.queue")
ROW_TARGETS_DUE = _ROW_TARGETS + " AND (t.due_at IS NULL OR t.due_at <= %s)"
ROW_TARGETS_POSTPONED = _ROW_TARGETS + " AND t.due_at > %s"
# Rows refreshed before a batch (a postponed Target fell due, a host is free again): at most this
# many per batch (the rest wait for the next one), so a burst of them cannot hold up one lease.
WAKE_LIMIT = 500

# A row's best Target due now (target_host_best, past the postponed ones above it) and its first
# postponed one (target_postponed); {extra}: the served time and sleep of the rows that have them.
_REFRESH = f"""
UPDATE frontier_hostqueue AS q SET
    best_priority = (SELECT t.priority FROM frontier_target t WHERE {ROW_TARGETS_DUE}
                     ORDER BY t.priority DESC LIMIT 1),
    wake_at = (SELECT t.due_at FROM frontier_target t WHERE {ROW_TARGETS_POSTPONED} ORDER BY t.due_at LIMIT 1)
    {{extra}}
WHERE q.id IN ({{rows}})
"""


def refresh(row_ids: Iterable[int], now: datetime, *, served: Iterable[int] = (),
            asleep: dict[int, datetime | None] | None = None, wake_by: datetime | None = None) -> int:
    """In the caller's transaction, set each row (locked by the caller) to its Targets: the best
    priority of those due now and the earliest due time of those postponed (None when there are
    none: a row with neither stays, empty, until a Target raises it again). Besides, in the same
    write: rows in ``served`` (hosts leased now) get ``served_at`` now; rows in ``asleep`` sleep
    until the time given (None: awake); other rows asleep until ``wake_by`` at the latest wake.
    One UPDATE; returns how many rows it wrote."""
    row_ids = sorted(set(row_ids))
    if not row_ids:
        return 0
    when = connection.ops.adapt_datetimefield_value
    params: list = [when(now), when(now)]
    extra = ""
    served = sorted(set(served))
    if served:
        extra += f", served_at = CASE WHEN q.id IN ({_marks(served)}) THEN %s ELSE q.served_at END"
        params += [*served, when(now)]
    if asleep or wake_by is not None:
        cases = " ".join(["WHEN %s THEN %s"] * len(asleep or {}))
        otherwise = "q.asleep_until"
        for row_id, until in (asleep or {}).items():
            params += [row_id, when(until)]
        if wake_by is not None:
            otherwise = "CASE WHEN q.asleep_until <= %s THEN NULL ELSE q.asleep_until END"
            params.append(when(wake_by))
        extra += f", asleep_until = CASE q.id {cases} ELSE {otherwise} END" if cases else f", asleep_until = {otherwise}"
    with connection.cursor() as cursor:
        cursor.execute(_REFRESH.format(extra=extra, rows=_marks(row_ids)), params + row_ids)
        return cursor.rowcount


def wake_due_rows(crawl_id: int, now: datetime, lookahead: timedelta) -> int:
    """In the caller's transaction, refresh the crawl's rows (those no other transaction holds)
    whose postponed Targets have fallen due or whose hosts are free again by ``now + lookahead``."""
    horizon = now + lookahead
    woken = (HostQueue.objects.select_for_update(skip_locked=True)
             .filter(Q(wake_at__lte=now) | Q(asleep_until__lte=horizon), crawl_id=crawl_id)
             .values_list("pk", flat=True))
    return refresh(list(woken[:WAKE_LIMIT]), now, wake_by=horizon)


def _marks(values: list) -> str:
    return ", ".join(["%s"] * len(values))
