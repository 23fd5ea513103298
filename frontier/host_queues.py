"""Lowering HostQueue rows to what their Targets say: the half of their upkeep the triggers leave.

A trigger raises a row when a Target of its host becomes pending or better (frontier.host_queue_
triggers); lowering needs the host's remaining Targets, so it is done here, for rows the caller
holds locked (SELECT … FOR UPDATE), and in a statement of its own: under READ COMMITTED that
statement sees every Target committed by a writer that held the row before (a writer raising a
row keeps it locked until it commits, and one coming after waits for this transaction, then raises
what this one lowered).
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db.models import Case, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.functions import Coalesce

from crawlweb.services.bulk_rows import update_columns
from frontier.models import HostQueue, Target

# The queue of a Target, as the triggers compute it (frontier.strategies.queues names the queues).
QUEUE_OF_TARGET = Case(When(origin=Target.Origin.BACKLINK, then=Value(HostQueue.Queue.BACKLINK)),
                       default=Value(HostQueue.Queue.FORWARD))
# Rows refreshed before a batch because a postponed Target fell due: at most this many per batch
# (the rest wait for the next batch), so a burst of retries cannot hold up one lease.
WAKE_LIMIT = 500


def pending_of_row() -> QuerySet:
    """The pending Targets of the outer HostQueue row (its crawl, host and queue)."""
    return (Target.objects.annotate(queue=QUEUE_OF_TARGET)
            .filter(crawl_id=OuterRef("crawl_id"), host_id=OuterRef("host_id"), queue=OuterRef("queue"),
                    state=Target.State.PENDING))


def due(now: datetime) -> Q:
    return Q(due_at__isnull=True) | Q(due_at__lte=now)


def refresh(row_ids: Iterable[int], now: datetime) -> int:
    """In the caller's transaction, set each row (locked by the caller) to its Targets: the best
    priority due now, and when the first better postponed one falls due; a row with no pending
    Target left is deleted. Returns how many rows were written or deleted."""
    row_ids = sorted(set(row_ids))
    if not row_ids:
        return 0
    best = Subquery(pending_of_row().filter(due(now)).order_by("-priority").values("priority")[:1])
    # Postponed Targets at or above the best due one: the row must be raised when the first is due.
    wake = Subquery(pending_of_row().filter(due_at__gt=now, priority__gte=Coalesce(OuterRef("fresh_best"),
                                                                                    Value(float("-inf"))))
                    .order_by("due_at").values("due_at")[:1])
    rows = (HostQueue.objects.filter(pk__in=row_ids).annotate(fresh_best=best).annotate(fresh_wake=wake)
            .values_list("pk", "best_priority", "wake_at", "fresh_best", "fresh_wake"))
    gone, best_of, wake_of = [], {}, {}
    for pk, stored_best, stored_wake, fresh_best, fresh_wake in rows:
        if fresh_best is None and fresh_wake is None:
            gone.append(pk)
        elif (stored_best, stored_wake) != (fresh_best, fresh_wake):
            best_of[pk], wake_of[pk] = fresh_best, fresh_wake
    if gone:
        HostQueue.objects.filter(pk__in=gone).delete()
    if best_of:
        update_columns(HostQueue, {"best_priority": best_of, "wake_at": wake_of})
    return len(gone) + len(best_of)


def wake_due_rows(crawl_id: int, now: datetime) -> int:
    """In the caller's transaction, refresh the crawl's rows whose postponed Targets have fallen due
    (those no other transaction holds)."""
    woken = list(HostQueue.objects.select_for_update(skip_locked=True)
                 .filter(crawl_id=crawl_id, wake_at__lte=now).order_by("wake_at").values_list("pk", flat=True)
                 [:WAKE_LIMIT])
    return refresh(woken, now)
