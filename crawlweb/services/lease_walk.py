"""Which hosts a lease batch takes: a walk over the crawl's HostQueue rows in lease order.

The order is the one leasing always had: the host's best pending Target due now (highest priority
first), then the least recently served host (round-robin; never served first), then the host id;
only hosts free by the politeness rules (nothing in flight, politeness clock run out within the
look-ahead), at most one Target per host. Each host's row keeps its best priority (frontier.models.
HostQueue), and the index on (crawl, [queue,] best priority, served_at, host) is that order, so a
batch reads about as many rows as it leases, however many Targets the crawl has: it never asks every
host for its best Target, as the query before this one did (1.5 s at 5,000,000 Targets).

Rows are read a chunk at a time and locked with their hosts (FOR UPDATE OF both, SKIP LOCKED), so
two workers never take the same host; each row's best Target due now is looked up beside it (the
first entry of target_host_best). A row whose stored priority is above that Target's (a Target
postponed, finished or lowered since the row was raised) still counts at its true priority, and is
lowered after the lease; crawlweb.services.best_first says when enough rows were read. A row whose host
waits for its politeness clock is put to sleep until the clock runs out (HostQueue.asleep_until: out
of the order's partial indexes; a trigger wakes it sooner if the clock is set back): the hosts a
crawl has just served, which are the ones at the top of its order, are read once per wait, not by
every batch. Hosts held by another worker are passed over inside the database.

Worst case: a batch reads, beyond its own hosts, the rows of hosts with a request in flight ranked
above them (at most the crawl's fetches under way: they are not put to sleep, as a request's end is
not known in advance) and the rows lowered or fallen asleep since the last batch, and at most
MAX_ROWS rows: past that, the batch is leased with the hosts already sure (possibly fewer than
asked, never out of order), and the rows it lowered or put to sleep are right for the next one.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection
from django.db.models import Q

from crawlweb.models import Crawl
from crawlweb.services.best_first import BestFirst
from crawlweb.services.host_queues import ROW_TARGETS_DUE

# Rows read per chunk beyond the batch asked: a row or two above its Targets costs no second round
# trip. Few: the rows read stay locked until the batch commits, out of other workers' reach.
CHUNK_MARGIN = 2
# A chunk after the first is twice the one before, up to MAX_CHUNK rows; at most MAX_ROWS rows
# (unlocked by other workers) are read per batch.
MAX_CHUNK = 256
MAX_ROWS = 1_000

# One chunk of the crawl's awake rows in lease order (index hostqueue_any_order or _lease_order), each
# with its host's best Target due now (the first entry of target_host_best), whether the host has a
# request in flight and whether it waits for its clock past the look-ahead. SQL rather than the ORM:
# a crawl step asks it every batch, and Django took longer to build it than PostgreSQL to run it.
_CHUNK = f"""
SELECT q.id, q.host_id, q.best_priority, q.served_at,
       (SELECT t.id FROM frontier_target t WHERE {ROW_TARGETS_DUE} ORDER BY t.priority DESC, t.id LIMIT 1),
       (SELECT t.priority FROM frontier_target t WHERE {ROW_TARGETS_DUE} ORDER BY t.priority DESC, t.id LIMIT 1),
       h.busy_until IS NOT NULL AND h.busy_until >= %s, h.next_fetch_at IS NOT NULL AND h.next_fetch_at > %s,
       h.next_fetch_at
FROM frontier_hostqueue q JOIN crawlweb_host h ON h.id = q.host_id
WHERE q.crawl_id = %s AND q.best_priority IS NOT NULL AND q.asleep_until IS NULL {{queue}} {{after}}
ORDER BY q.best_priority DESC, q.served_at, q.host_id
LIMIT %s {{lock}}
"""
_AFTER = "AND q.best_priority <= %s AND (q.best_priority < %s OR q.served_at > %s OR (q.served_at = %s AND q.host_id > %s))"


@dataclass(frozen=True)
class Row:
    """A HostQueue row as the walk read it, with its host's best Target due now (None: nothing due),
    whether the host has a request in flight, and until when it waits for its politeness clock
    (None: its clock runs out within the look-ahead)."""

    id: int
    host_id: int
    best_priority: float
    served_at: datetime
    target_id: int | None
    target_priority: float | None
    busy: bool
    waits_until: datetime | None

    @property
    def free(self) -> bool:
        return not self.busy and self.waits_until is None


@dataclass
class Walk:
    chosen: list[Row]  # best first
    stale: list[int]  # ids of rows read whose stored priority is not their best due Target's
    asleep: dict[int, datetime]  # ids of rows read whose hosts wait for their clocks -> until when
    rows_read: int


def host_free(now: datetime, lookahead: timedelta = timedelta(0)) -> Q:
    """Hosts with no request in flight whose politeness clock runs out by ``now + lookahead``
    (the walk's SQL asks the same of each row's host)."""
    return ((Q(busy_until__isnull=True) | Q(busy_until__lt=now))
            & (Q(next_fetch_at__isnull=True) | Q(next_fetch_at__lte=now + lookahead)))


def walk(crawl: Crawl, queue: str | None, now: datetime, lookahead: timedelta, limit: int) -> Walk:
    """The hosts to lease from ``queue`` (a HostQueue.Queue name; None: both, a one-queue crawl),
    their rows and hosts locked until the caller's transaction ends."""
    best = BestFirst(limit)
    stale: list[int] = []
    asleep: dict[int, datetime] = {}
    size = limit + CHUNK_MARGIN
    read, after = 0, None
    while True:
        if after is not None:  # the last chunk held hosts not to lease: fewer round trips past them
            size = min(2 * size, MAX_CHUNK)
        rows = _chunk(crawl.pk, queue, now, lookahead, after, size)
        read += len(rows)
        for row in rows:
            leasable = row.free and row.target_id is not None
            true_key = (-row.target_priority, row.served_at, row.host_id) if leasable else None
            best.offer(row.host_id, (-row.best_priority, row.served_at, row.host_id), true_key, row)
            if row.waits_until is not None and not row.busy:  # out of the order until its clock runs out
                asleep[row.id] = row.waits_until
            elif row.free and row.target_priority != row.best_priority:
                stale.append(row.id)
        if len(rows) < size:
            best.all_read()
            break
        if best.settled() or read >= MAX_ROWS:
            break
        after = rows[-1]
    return Walk(chosen=best.chosen(), stale=stale, asleep=asleep, rows_read=read)


def _chunk(crawl_id: int, queue: str | None, now: datetime, lookahead: timedelta, after: Row | None,
           size: int) -> list[Row]:
    when = connection.ops.adapt_datetimefield_value
    params: list = [when(now), when(now), when(now), when(now + lookahead), crawl_id]
    queue_sql = ""
    if queue is not None:
        queue_sql, params = "AND q.queue = %s", params + [queue]
    after_sql = ""
    if after is not None:  # the rows after the last one read, in lease order
        served = when(after.served_at)
        after_sql = _AFTER
        params += [after.best_priority, after.best_priority, served, served, after.host_id]
    params.append(size)
    lock = "FOR UPDATE OF q, h SKIP LOCKED" if connection.features.has_select_for_update_skip_locked else ""
    with connection.cursor() as cursor:
        cursor.execute(_CHUNK.format(queue=queue_sql, after=after_sql, lock=lock), params)
        return [Row(*values[:6], busy=bool(values[6]), waits_until=values[8] if values[7] else None)
                for values in cursor.fetchall()]
