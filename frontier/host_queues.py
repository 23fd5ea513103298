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
from datetime import datetime

from django.db import connection

from frontier.models import HostQueue

# The pending Targets of row q (of its crawl, host and queue, as the triggers assign a Target to a
# queue: frontier.strategies.queues), due now or postponed (one parameter each: now).
_ROW_TARGETS = ("t.crawl_id = q.crawl_id AND t.host_id = q.host_id AND t.state = 'pending'"
                " AND (CASE WHEN t.origin = 'backlink' THEN 'backlink' ELSE 'forward' END) = q.queue")
ROW_TARGETS_DUE = _ROW_TARGETS + " AND (t.due_at IS NULL OR t.due_at <= %s)"
ROW_TARGETS_POSTPONED = _ROW_TARGETS + " AND t.due_at > %s"
# Rows refreshed before a batch because a postponed Target fell due: at most this many per batch
# (the rest wait for the next batch), so a burst of retries cannot hold up one lease.
WAKE_LIMIT = 500

# A row's best Target due now (target_host_best, past the postponed ones above it) and its first
# postponed one (target_postponed); a host leased now gets its served time in the same write.
_REFRESH = f"""
UPDATE frontier_hostqueue AS q SET
    best_priority = (SELECT t.priority FROM frontier_target t WHERE {ROW_TARGETS_DUE}
                     ORDER BY t.priority DESC LIMIT 1),
    wake_at = (SELECT t.due_at FROM frontier_target t WHERE {ROW_TARGETS_POSTPONED} ORDER BY t.due_at LIMIT 1)
    {{served}}
WHERE q.id IN ({{rows}})
"""


def refresh(row_ids: Iterable[int], now: datetime, served: Iterable[int] = ()) -> int:
    """In the caller's transaction, set each row (locked by the caller) to its Targets: the best
    priority of those due now and the earliest due time of those postponed (None when there are
    none: a row with neither stays, empty, until a Target raises it again). Rows in ``served``
    (hosts leased now) get ``served_at`` now, in the same write the host's trigger would make.
    One UPDATE; returns how many rows it wrote."""
    row_ids = sorted(set(row_ids))
    if not row_ids:
        return 0
    when = connection.ops.adapt_datetimefield_value(now)
    served = sorted(set(served))
    served_sql = ""
    params: list = [when, when]
    if served:
        served_sql = f", served_at = CASE WHEN q.id IN ({', '.join(['%s'] * len(served))}) THEN %s ELSE q.served_at END"
        params += [*served, when]
    with connection.cursor() as cursor:
        cursor.execute(_REFRESH.format(served=served_sql, rows=", ".join(["%s"] * len(row_ids))), params + row_ids)
        return cursor.rowcount


def wake_due_rows(crawl_id: int, now: datetime) -> int:
    """In the caller's transaction, refresh the crawl's rows whose postponed Targets have fallen
    due (those no other transaction holds)."""
    woken = (HostQueue.objects.select_for_update(skip_locked=True)
             .filter(crawl_id=crawl_id, wake_at__lte=now).order_by("wake_at").values_list("pk", flat=True))
    return refresh(list(woken[:WAKE_LIMIT]), now)
