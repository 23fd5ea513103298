"""The figures of a crawl's live panel (polled every 2 s), read from the crawl's tallies (crawlweb.tallies:
running counts that database triggers keep as rows change), so a poll reads a few hundred rows,
not the crawl's millions of Targets and pages:

- Targets: per state, origin (the queue: forward, backlink, …) and error kind;
- Pages: stored pages, sites seen, and pages per language and script;
- LayerPlacement: Targets per module layer (M01.L01 …), and how many still wait;
- Hosts: those with work left (a Target pending or leased), how many of them wait on their
  politeness clock (Host.next_fetch_at in the future) and how many have a request in flight
  (Host.busy_until in the future);
- Targets fetched in the last minute (Target.fetched_at, a range of an index).

Five statements, each exact when it runs. A read that summed many deltas folds them afterwards.
"""
from __future__ import annotations

from collections import Counter
from datetime import timedelta

from django.utils import timezone

from crawlweb.models import Crawl
from crawlweb.progress import per_minute
from crawlweb.tallies import reads
from crawlweb.tallies.fold import fold_if_many
from frontier.models import Target

RATE_WINDOW = timedelta(seconds=60)


def _targets(crawl: Crawl, deltas: Counter) -> dict:
    states = dict.fromkeys(Target.State.values, 0)
    origins: dict[str, dict] = {}
    errors: dict[str, int] = {}
    for row in reads.target_groups([crawl.pk], "state", "origin", "error_kind"):
        deltas[crawl.pk] += row["deltas"]
        states[row["state"]] = states.get(row["state"], 0) + row["n"]
        origin = origins.setdefault(row["origin"], {"origin": row["origin"], "total": 0, "pending": 0})
        origin["total"] += row["n"]
        origin["pending"] += row["n"] if row["state"] == Target.State.PENDING else 0
        if row["error_kind"]:
            errors[row["error_kind"]] = errors.get(row["error_kind"], 0) + row["n"]
    labels = dict(Target.Origin.choices)
    # The two queues of a back/forward crawl first, then the other origins.
    order = {Target.Origin.FORWARD: 0, Target.Origin.BACKLINK: 1}
    queues = sorted(origins.values(), key=lambda o: (order.get(o["origin"], 2), -o["total"], o["origin"]))
    for queue in queues:
        queue["label"] = labels.get(queue["origin"], queue["origin"])
    return {"states": states, "queues": queues,
            "errors": sorted(errors.items(), key=lambda item: (-item[1], item[0]))}


def _pages(crawl: Crawl, deltas: Counter) -> dict:
    languages = list(reads.page_groups(crawl.pk))
    deltas[crawl.pk] += sum(row.pop("deltas") for row in languages)
    languages.sort(key=lambda row: (-row["n"], row["language"], row["script"]))
    return {"pages": sum(row["n"] for row in languages), "languages": languages}


def _layers(crawl: Crawl, deltas: Counter) -> list[dict]:
    rows = list(reads.layer_groups(crawl.pk))
    deltas[crawl.pk] += sum(row.pop("deltas") for row in rows)
    return sorted(rows, key=lambda row: row["layer_id"])


def _members(crawl: Crawl, deltas: Counter) -> dict:
    """Sites seen and hosts with work left: members of the crawl's figures with a positive count."""
    counts, summed = reads.member_counts([crawl.pk], (reads.SITE_PAGES, reads.HOST_WORK))
    deltas.update(summed)
    return {"sites": counts[(crawl.pk, reads.SITE_PAGES)], "with_work": counts[(crawl.pk, reads.HOST_WORK)]}


def average_per_minute(crawl: Crawl, now) -> float:
    """Pages fetched per minute over the crawl's run so far (started → finished, or now)."""
    if crawl.started_at is None:
        return 0.0
    end = crawl.finished_at if crawl.state != Crawl.State.RUNNING and crawl.finished_at else now
    return per_minute(crawl.pages_fetched, (end - crawl.started_at).total_seconds())


def live_counters(crawl: Crawl, now=None) -> dict:
    now = now or timezone.now()
    since = now - RATE_WINDOW
    deltas: Counter = Counter()
    targets, pages, layers = _targets(crawl, deltas), _pages(crawl, deltas), _layers(crawl, deltas)
    members = _members(crawl, deltas)
    clocks = reads.clock_figures(crawl.pk, now, since)
    fold_if_many(deltas)
    hosts = {"with_work": members["with_work"], "polite": clocks["waiting"], "busy": clocks["busy"]}
    return {**targets, **pages, "sites": members["sites"], "layers": layers, "hosts": hosts,
            "fetched_last_minute": clocks["fetched_since"], "rate_since": since,
            "per_minute_average": average_per_minute(crawl, now)}
