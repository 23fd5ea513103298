"""A crawl's counts read from its tallies: each a sum over the folded rows and the deltas since, in one
statement (one snapshot), so it is exact whatever folds run meanwhile. Each read also says how many
deltas it summed (``deltas``): crawlweb.tallies.fold.fold_if_many folds a crawl that has many.
"""
from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from django.db import connection
from django.db.models import Count, Q, Sum

from crawlweb.models import LayerTally, PageTally, TargetTally
from crawlweb.tallies.feeds import HOST_WORK, SITE_PAGES  # noqa: F401 -- the figures readers name

UNFOLDED = Count("id", filter=Q(folded=False))


def _sums(rows, *keys: str, **extra) -> list[dict]:
    """Dicts of ``keys`` with n (the sum of their rows), deltas (unfolded rows summed) and ``extra`` sums."""
    summed = (rows.order_by().values(*keys).annotate(total=Sum("n"), deltas=UNFOLDED, **extra)
              .exclude(total=0))
    return [{**{key: row[key] for key in (*keys, *extra)}, "n": row["total"], "deltas": row["deltas"]}
            for row in summed]


def target_groups(crawl_ids: list[int], *keys: str) -> list[dict]:
    """The crawls' Targets per ``keys`` (of crawl_id, state, origin, error_kind)."""
    return _sums(TargetTally.objects.filter(crawl_id__in=crawl_ids), *keys)


def page_groups(crawl_id: int) -> list[dict]:
    """The crawl's pages per language and script."""
    return _sums(PageTally.objects.filter(crawl_id=crawl_id), "language", "script")


def layer_groups(crawl_id: int) -> list[dict]:
    """The crawl's layer placements per module layer, and of them those whose Target is pending."""
    return _sums(LayerTally.objects.filter(crawl_id=crawl_id), "module", "layer", "layer_id",
                 pending=Sum("n", filter=Q(pending=True), default=0))


# A figure's folded count, plus per member with deltas the difference they make: +1 when they turn
# its sum positive, -1 when they bring it to zero.
_MEMBER_COUNTS = """
SELECT crawl_id, figure, SUM(n), SUM(delta_rows) FROM (
    SELECT crawl_id, figure, n, 0 AS delta_rows FROM crawlweb_membercount
    WHERE crawl_id IN ({crawls}) AND figure IN ({figures})
    UNION ALL
    SELECT d.crawl_id, d.figure,
           CASE WHEN COALESCE(b.n, 0) + d.n > 0 THEN 1 ELSE 0 END - CASE WHEN COALESCE(b.n, 0) > 0 THEN 1 ELSE 0 END,
           d.delta_rows
    FROM (SELECT crawl_id, figure, member_id, SUM(n) AS n, COUNT(*) AS delta_rows FROM crawlweb_membertally
          WHERE crawl_id IN ({crawls}) AND figure IN ({figures}) AND folded = FALSE
          GROUP BY crawl_id, figure, member_id) AS d
    LEFT JOIN crawlweb_membertally AS b
      ON b.crawl_id = d.crawl_id AND b.figure = d.figure AND b.member_id = d.member_id AND b.folded = TRUE
) AS counted GROUP BY crawl_id, figure
"""


def member_counts(crawl_ids: list[int], figures: tuple[str, ...]) -> tuple[dict, dict[int, int]]:
    """({(crawl id, figure): members with a positive sum}, {crawl id: deltas summed}); zeros included."""
    counts = {(crawl_id, figure): 0 for crawl_id in crawl_ids for figure in figures}
    deltas: dict[int, int] = defaultdict(int)
    if not crawl_ids:
        return counts, deltas
    sql = _MEMBER_COUNTS.format(crawls=", ".join(["%s"] * len(crawl_ids)), figures=", ".join(["%s"] * len(figures)))
    with connection.cursor() as cursor:
        cursor.execute(sql, [*crawl_ids, *figures] * 2)
        for crawl_id, figure, n, delta_rows in cursor.fetchall():
            counts[(crawl_id, figure)] = int(n)
            deltas[crawl_id] += int(delta_rows)
    return counts, deltas


# The figures that move with the clock. Targets fetched since a moment: a range of the target_fetched_at
# index. Hosts of the crawl with work (a positive host-work sum) whose politeness clock or request runs
# into the future: the few hosts whose clock is set there (two indexes), each looked up in the tally.
_CLOCKS = f"""
SELECT
    (SELECT COUNT(*) FROM frontier_target WHERE crawl_id = %(crawl)s AND fetched_at >= %(since)s),
    COALESCE(SUM(CASE WHEN h.next_fetch_at > %(now)s THEN 1 ELSE 0 END), 0),
    COALESCE(SUM(CASE WHEN h.busy_until > %(now)s THEN 1 ELSE 0 END), 0)
FROM crawlweb_host AS h
WHERE (h.next_fetch_at > %(now)s OR h.busy_until > %(now)s)
  AND (SELECT SUM(m.n) FROM crawlweb_membertally AS m
       WHERE m.crawl_id = %(crawl)s AND m.figure = '{HOST_WORK}' AND m.member_id = h.id) > 0
"""


def clock_figures(crawl_id: int, now: datetime, since: datetime) -> dict[str, int]:
    """Targets fetched since ``since``; hosts with work waiting on their politeness clock, and with a
    request in flight, at ``now``."""
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(_CLOCKS, {"crawl": crawl_id, "now": adapt(now), "since": adapt(since)})
        fetched, waiting, busy = cursor.fetchone()
    return {"fetched_since": fetched, "waiting": waiting, "busy": busy}
