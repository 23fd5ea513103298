"""The figures of a crawl's live panel (polled every 2 s), each an aggregate over the rows behind it,
so the panel costs a handful of queries whatever the crawl's size:

- Targets: one pass grouped by state, origin (the queue: forward, backlink, …) and error kind, with
  those fetched in the last minute (Target.fetched_at);
- Pages: stored pages, sites seen, and pages per language and script;
- LayerPlacement: Targets per module layer (M01.L01 …), and how many still wait;
- Hosts: those with work left (a Target pending or leased), how many of them wait on their
  politeness clock (Host.next_fetch_at in the future) and how many have a request in flight
  (Host.busy_until in the future).
"""
from __future__ import annotations

from datetime import timedelta

from django.db.models import Count, Q
from django.utils import timezone

from crawlweb.models import Crawl, Page
from crawlweb.progress import per_minute
from frontier.models import LayerPlacement, Target

RATE_WINDOW = timedelta(seconds=60)
HOST_WORK_STATES = (Target.State.PENDING, Target.State.LEASED)


def _targets(crawl: Crawl, since) -> dict:
    rows = (Target.objects.filter(crawl=crawl).order_by().values("state", "origin", "error_kind")
            .annotate(n=Count("id"), recent=Count("id", filter=Q(fetched_at__gte=since))))
    states = dict.fromkeys(Target.State.values, 0)
    origins: dict[str, dict] = {}
    errors: dict[str, int] = {}
    recent = 0
    for row in rows:
        states[row["state"]] += row["n"]
        origin = origins.setdefault(row["origin"], {"origin": row["origin"], "total": 0, "pending": 0})
        origin["total"] += row["n"]
        origin["pending"] += row["n"] if row["state"] == Target.State.PENDING else 0
        if row["error_kind"]:
            errors[row["error_kind"]] = errors.get(row["error_kind"], 0) + row["n"]
        recent += row["recent"]
    labels = dict(Target.Origin.choices)
    # The two queues of a back/forward crawl first, then the other origins.
    order = {Target.Origin.FORWARD: 0, Target.Origin.BACKLINK: 1}
    queues = sorted(origins.values(), key=lambda o: (order.get(o["origin"], 2), -o["total"], o["origin"]))
    for queue in queues:
        queue["label"] = labels.get(queue["origin"], queue["origin"])
    return {"states": states, "queues": queues, "fetched_last_minute": recent,
            "errors": sorted(errors.items(), key=lambda item: (-item[1], item[0]))}


def _pages(crawl: Crawl) -> dict:
    totals = Page.objects.filter(crawl=crawl).aggregate(pages=Count("id"), sites=Count("site", distinct=True))
    languages = (Page.objects.filter(crawl=crawl).order_by().values("language", "script")
                 .annotate(n=Count("id")).order_by("-n", "language", "script"))
    return {**totals, "languages": list(languages)}


def _layers(crawl: Crawl) -> list[dict]:
    rows = (LayerPlacement.objects.filter(target__crawl=crawl).order_by().values("module", "layer", "layer_id")
            .annotate(n=Count("id"), pending=Count("id", filter=Q(target__state=Target.State.PENDING))))
    return sorted(rows, key=lambda row: row["layer_id"])


def _hosts(crawl: Crawl, now) -> dict:
    """Hosts with work in the crawl (a Target pending or leased), and of them those whose politeness
    clock has not run out and those with a request in flight (the admin's Host filters, same terms)."""
    return (Target.objects.filter(crawl=crawl, state__in=HOST_WORK_STATES)
            .aggregate(with_work=Count("host", distinct=True),
                       polite=Count("host", distinct=True, filter=Q(host__next_fetch_at__gt=now)),
                       busy=Count("host", distinct=True, filter=Q(host__busy_until__gt=now))))


def average_per_minute(crawl: Crawl, now) -> float:
    """Pages fetched per minute over the crawl's run so far (started → finished, or now)."""
    if crawl.started_at is None:
        return 0.0
    end = crawl.finished_at if crawl.state != Crawl.State.RUNNING and crawl.finished_at else now
    return per_minute(crawl.pages_fetched, (end - crawl.started_at).total_seconds())


def live_counters(crawl: Crawl, now=None) -> dict:
    now = now or timezone.now()
    since = now - RATE_WINDOW
    targets = _targets(crawl, since)
    return {**targets, **_pages(crawl), "layers": _layers(crawl), "hosts": _hosts(crawl, now),
            "rate_since": since, "per_minute_average": average_per_minute(crawl, now)}
