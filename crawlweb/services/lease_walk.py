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
lowered after the lease; frontier.best_first says when enough rows were read. Hosts waiting for
their politeness clock, busy or held by another worker are passed over inside the database.

Worst case: each chunk walks past the hosts that are not free, so a batch costs time in proportion
to the busy and waiting hosts ranked above the ones it takes (in a steady crawl about the hosts
served within the last politeness interval, which the round-robin order puts last among their
equals), and at most MAX_ROWS free rows: past that, the batch is leased with the hosts already sure
(possibly fewer than asked, never out of order), and the rows it lowered are right for the next one.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import F, Q, Subquery

from crawlweb.models import Crawl
from frontier.best_first import BestFirst
from frontier.host_queues import due, pending_of_row
from frontier.models import HostQueue

# Rows read per chunk beyond the batch asked: a row or two above its Targets costs no second round
# trip. Few: the rows read stay locked until the batch commits, out of other workers' reach.
CHUNK_MARGIN = 2
# Rows read (free, unlocked hosts) at most per batch.
MAX_ROWS = 1_000


@dataclass
class Walk:
    chosen: list[HostQueue]  # best first; each with .host, .target_id
    stale: list[int]  # ids of rows read whose stored priority is not their best due Target's
    rows_read: int


def host_free(now: datetime, lookahead: timedelta = timedelta(0), prefix: str = "") -> Q:
    """Hosts with no request in flight whose politeness clock runs out by ``now + lookahead``."""
    def q(**lookups) -> Q:
        return Q(**{prefix + name: value for name, value in lookups.items()})
    return ((q(busy_until__isnull=True) | q(busy_until__lt=now))
            & (q(next_fetch_at__isnull=True) | q(next_fetch_at__lte=now + lookahead)))


def walk(crawl: Crawl, queue: str | None, now: datetime, lookahead: timedelta, limit: int) -> Walk:
    """The hosts to lease from ``queue`` (a HostQueue.Queue name; None: both, a one-queue crawl),
    locked until the caller's transaction ends."""
    best = BestFirst(limit)
    stale: list[int] = []
    size = limit + CHUNK_MARGIN
    read, after = 0, None
    while True:
        rows = list(_chunk(crawl, queue, now, lookahead, after, size))
        read += len(rows)
        for row in rows:
            true_key = None if row.target_id is None else (-row.target_priority, row.served_at, row.host_id)
            best.offer(row.host_id, (-row.best_priority, row.served_at, row.host_id), true_key, row)
            if row.target_priority != row.best_priority:
                stale.append(row.pk)
        if len(rows) < size:
            best.all_read()
            break
        if best.settled() or read >= MAX_ROWS:
            break
        after = rows[-1]
    return Walk(chosen=best.chosen(), stale=stale, rows_read=read)


def _chunk(crawl: Crawl, queue: str | None, now: datetime, lookahead: timedelta, after: HostQueue | None,
           size: int):
    best_due = pending_of_row().filter(due(now)).order_by("-priority", "id")
    rows = (HostQueue.objects.select_for_update(skip_locked=True, of=("self", "host")).select_related("host")
            .filter(crawl_id=crawl.pk, best_priority__isnull=False)
            .filter(host_free(now, lookahead, prefix="host__")))
    if queue is not None:
        rows = rows.filter(queue=queue)
    if after is not None:  # the rows after the last one read, in lease order
        rows = rows.filter(best_priority__lte=after.best_priority).filter(
            Q(best_priority__lt=after.best_priority)
            | Q(served_at__gt=after.served_at)
            | Q(served_at=after.served_at, host_id__gt=after.host_id))
    return (rows.annotate(target_id=Subquery(best_due.values("id")[:1]),
                          target_priority=Subquery(best_due.values("priority")[:1]))
            .order_by(F("best_priority").desc(), "served_at", "host_id")[:size])
