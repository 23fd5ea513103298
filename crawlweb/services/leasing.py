"""Leasing due Targets to a worker: the part that must hold across many workers and machines.

A lease claims a Host (at most one request in flight per host) and that host's best due Target.
Host rows are locked with SELECT ... FOR UPDATE SKIP LOCKED on PostgreSQL, so two workers never
claim the same host at once, and a claim is written (busy_until, lease_expires_at) before the
transaction commits. Leases expire: a worker that dies loses nothing, its Targets come back.
SQLite ignores FOR UPDATE; there the IMMEDIATE transaction mode serializes writers instead.

Hosts are taken best Target first, then least recently served, one Target per host per batch,
and never before the host's politeness clock allows: one big site cannot starve the others.
Which hosts, lease_walk finds from the crawl's HostQueue rows (one per host and queue, holding the
host's best pending priority), so a batch costs the same at 5,000,000 Targets as at 5,000.

A Target whose lease ran out is made pending again before each batch is leased, so that the
per-host question is only "the best pending Target", which is the first entry of an index
(target_host_best).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, F, Min, Q, Subquery, Value
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from crawlweb.crawler.politeness import bounded_interval
from crawlweb.crawler.scriptlinks import is_script_url
from crawlweb.models import Crawl, Host, HostQueue, Target
from crawlweb.services.bulk_rows import case_by_id
from crawlweb.services.lease_walk import walk
from crawlweb.services.crawl_policy import queue_order
from crawlweb.services.host_queues import refresh, wake_due_rows

# A request outside a crawl step waits for its host at most two politeness intervals and these seconds,
# looking at it this often meanwhile (polite_fetch, deep-page checks).
EXTRA_WAIT_S = 5.0
POLL_S = 0.25


@dataclass
class Lease:
    target: Target
    host: Host
    # for a script, the URL of the page that linked it: its relative paths are read against the page
    # that loads it (crawler.scriptlinks.script_file_links), as a browser reads them
    source_url: str | None = None

    def wait_s(self) -> float:
        """Seconds until the host's politeness clock allows the request (0 when it allows it now)."""
        due = self.host.next_fetch_at
        return max(0.0, (due - timezone.now()).total_seconds()) if due is not None else 0.0

    def lost(self) -> bool:
        """The lease ran out before its request was sent: another worker may have leased the Target
        since (expired leases are taken again), so this one must not request it too."""
        expires = self.target.lease_expires_at
        return expires is not None and timezone.now() >= expires


def expired_lease(now: datetime) -> Q:
    return Q(state=Target.State.LEASED, lease_expires_at__lt=now)


def in_flight(crawl: Crawl):
    """The crawl's Targets leased now (a live lease): requests under way, not yet counted as fetched."""
    return Target.objects.filter(crawl_id=crawl.pk, state=Target.State.LEASED, lease_expires_at__gte=timezone.now())


def room_read_afresh(crawl: Crawl, besides: str = "") -> int | None:
    """Pages the crawl may still start: its budget minus its pages fetched and the requests in flight
    (``besides``: not counting that lease owner's). One statement, so one snapshot: a request counted
    neither in flight nor fetched (stored between two reads) cannot slip through. The crawl's state,
    counter and deadline are read afresh into ``crawl`` with it; None when the crawl is gone."""
    leases = in_flight(crawl).exclude(lease_owner=besides) if besides else in_flight(crawl)
    leased = Subquery(leases.order_by().values("crawl_id").annotate(n=Count("pk")).values("n"))
    fresh = (Crawl.objects.filter(pk=crawl.pk).annotate(leased=Coalesce(leased, 0))
             .values("state", "pages_fetched", "deadline_at", "leased").first())
    if fresh is None:
        return None
    crawl.state, crawl.pages_fetched, crawl.deadline_at = fresh["state"], fresh["pages_fetched"], fresh["deadline_at"]
    return crawl.budget_left - fresh["leased"]


def lease_batch(crawl: Crawl, owner: str, limit: int, lease_seconds: int) -> list[Lease]:
    """Lease from the crawl's queues in the order its strategy wants (back/forward crawls have two)."""
    recover_expired_leases(crawl)
    for queue in queue_order(crawl) or [None]:
        leases = _lease_from(crawl, owner, limit, lease_seconds, queue)
        if leases:
            return leases
    return []


def _script_loaders(crawl: Crawl, targets) -> dict[str, str]:
    """{script URL: the page that linked it} for the scripts that named pages of this batch: a page a
    script names may be a fragment the script inserts into that page (crawler.fragments). Few pages
    come from a script: most batches skip the query."""
    scripts = {t.linked_from for t in targets if t.linked_from and is_script_url(t.linked_from) and not is_script_url(t.url)}
    if not scripts:
        return {}
    return {url: loader for url, loader in Target.objects.filter(crawl_id=crawl.pk, url__in=scripts)
            .values_list("url", "source_page__url") if loader}


def _read_against(target: Target, loaders: dict[str, str]) -> str | None:
    """The page a Target's relative paths are read against when it is not a page of its own: a script's
    linking page, or for a page a script named, the page that loaded the script."""
    if is_script_url(target.url):
        return target.linked_from
    return loaders.get(target.linked_from) if target.linked_from else None


def recover_expired_leases(crawl: Crawl) -> int:
    """Targets whose worker died or stalled past the lease are pending again (attempts kept).

    Read first: there usually are none, and on SQLite every write, even of no row, takes the
    database's one write lock."""
    expired = Target.objects.filter(expired_lease(timezone.now()), crawl_id=crawl.pk)
    return expired.update(state=Target.State.PENDING) if expired.exists() else 0


def _lease_from(crawl: Crawl, owner: str, limit: int, lease_seconds: int, queue: str | None) -> list[Lease]:
    """Lease from one queue (a HostQueue.Queue name; None: every Target of a one-queue crawl)."""
    now = timezone.now()
    # Hosts whose politeness clock runs out within the look-ahead are leased now and their fetch
    # waits for that moment (Lease.wait_s): a host due a few milliseconds after a lease is not
    # left for the next step, which is what kept a polite crawl below its bound.
    lookahead = timedelta(seconds=settings.CRAWLER_LEASE_LOOKAHEAD)
    expires = now + timedelta(seconds=lease_seconds)
    with transaction.atomic():
        wake_due_rows(crawl.pk, now, lookahead)
        found = walk(crawl, queue, now, lookahead, limit)
        # Each host's best Target came with its row: one more statement reads them, and their hosts.
        # The linking page's URL comes along in the same statement (a join on one column).
        targets = (Target.objects.select_related("page", "host").annotate(linked_from=F("source_page__url"))
                   .in_bulk([row.target_id for row in found.chosen]))
        loaders = _script_loaders(crawl, targets.values())
        leases = [Lease(target=target, host=target.host, source_url=_read_against(target, loaders))
                  for row in found.chosen if (target := targets.get(row.target_id)) is not None]
        # A few statements for the whole batch, written before the host locks are released.
        Target.objects.filter(pk__in=[lease.target.pk for lease in leases]).update(
            state=Target.State.LEASED, lease_owner=owner, lease_expires_at=expires, attempts=F("attempts") + 1)
        # The leased hosts' rows fall to their next Target and are served now; rows found above
        # their Targets fall to those; rows of hosts found waiting for their clocks sleep till then.
        leased_rows = [row.id for row in found.chosen]
        refresh(leased_rows + found.stale, now, served=leased_rows, asleep=found.asleep)
        Host.objects.filter(pk__in=[lease.host.pk for lease in leases]).update(busy_until=expires,
                                                                               last_served_at=now)
    for lease in leases:  # the rows as written above, without reading them back
        lease.target.state, lease.target.lease_owner = Target.State.LEASED, owner
        lease.target.lease_expires_at, lease.target.attempts = expires, lease.target.attempts + 1
    return leases


def claim_hosts_now(host_ids) -> dict[int, float]:
    """One request outside a crawl step (a detector's read, a deep-page HEAD) claims its host here, as a
    lease does: {host id: 0.0 when claimed now, else the seconds until it may be free (at least 0.01)}, for a
    caller with other hosts to turn to meanwhile. One conditional UPDATE claims every free one (free, its
    politeness clock passed; a host another worker claimed first no longer matches), one read says how long
    the others are held. Whoever claims a host frees it after the request (release_hosts)."""
    host_ids = sorted(set(host_ids))
    if not host_ids:
        return {}
    now = timezone.now()
    expires = now + timedelta(seconds=settings.CRAWLER_LEASE_SECONDS)
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Host._meta.db_table} SET busy_until = %s, last_served_at = %s"
            f" WHERE id IN ({', '.join(['%s'] * len(host_ids))})"
            " AND (busy_until IS NULL OR busy_until < %s) AND (next_fetch_at IS NULL OR next_fetch_at <= %s)"
            " RETURNING id", [adapt(expires), adapt(now), *host_ids, adapt(now), adapt(now)])
        waits = {host_id: 0.0 for (host_id,) in cursor.fetchall()}
    held = [host_id for host_id in host_ids if host_id not in waits]
    for row in Host.objects.filter(pk__in=held).values("pk", "busy_until", "next_fetch_at"):
        moments = [m for m in (row["busy_until"], row["next_fetch_at"]) if m is not None and m > now]
        # busy_until is a lease's expiry, an upper bound: the host is usually released sooner.
        waits[row["pk"]] = max(0.01, max((m - now).total_seconds() for m in moments) if moments else 0.05)
    return {host_id: waits.get(host_id, 0.05) for host_id in host_ids}  # a host row gone: try again later


def release_hosts(releases: list[tuple[int, float, datetime | None]]) -> None:
    """The requests are over: free each (host id, interval, request end) host in one statement; a
    host's politeness clock runs from its request's end. An interval beyond the bound (a Crawl-delay stored
    before robots.txt values were bounded) counts as the bound: one host's value must not fail the batch."""
    now = timezone.now()
    next_fetch = {host_id: (ended or now) + timedelta(seconds=bounded_interval(interval))
                  for host_id, interval, ended in releases}
    if next_fetch:
        Host.objects.filter(pk__in=sorted(next_fetch)).update(
            busy_until=None, next_fetch_at=case_by_id(next_fetch, Host._meta.get_field("next_fetch_at")))


def hand_back_leases(crawl: Crawl, owner: str, interval_s: Callable[[Host], float]) -> int:
    """Make the Targets ``owner`` still holds pending again (the attempt not counted) and free
    their hosts, whose politeness clocks run from now: a worker whose fetches could not be stored
    gives them back instead of letting the leases run out. Returns how many it gave back."""
    held = Target.objects.filter(crawl_id=crawl.pk, state=Target.State.LEASED, lease_owner=owner)
    with transaction.atomic():
        host_ids = set(held.values_list("host_id", flat=True))
        handed = held.update(state=Target.State.PENDING, lease_owner="", lease_expires_at=None,
                             attempts=F("attempts") - 1)
        release_hosts([(host.pk, interval_s(host), None) for host in Host.objects.filter(pk__in=host_ids)])
    return handed


def next_lease_in(crawl: Crawl) -> float | None:
    """Seconds until some open Target of the crawl may be leased; None when none is left.

    The earliest of: a host with due Targets becoming free, a postponed Target falling due,
    a live lease ending (its worker finishes, or dies and the lease expires). The first two are
    read from the crawl's HostQueue rows, one per host, not from its Targets."""
    now = timezone.now()
    open_targets = Target.objects.filter(crawl_id=crawl.pk, state__in=(Target.State.PENDING, Target.State.LEASED))
    if not open_targets.exists():
        return None
    rows = HostQueue.objects.filter(crawl_id=crawl.pk)
    moments = [
        Host.objects.filter(pk__in=rows.filter(best_priority__isnull=False).values("host_id")).aggregate(
            m=Min(Greatest(Coalesce("next_fetch_at", Value(now)), Coalesce("busy_until", Value(now)))))["m"],
        rows.aggregate(m=Min("wake_at"))["m"],
        # a lease already expired counts as now: the next batch makes its Target pending again
        open_targets.filter(state=Target.State.LEASED).aggregate(m=Min("lease_expires_at"))["m"],
    ]
    return max(0.0, min((m - now).total_seconds() for m in moments if m is not None))
