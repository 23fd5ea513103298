"""The harvest curve of a crawl from its rows: bilingual sites found against pages fetched.

Each point is a SiteVerdict the BS Detector stored as bilingual, at the crawl's fetched-page count
when it was stored; the curve ends at the crawl's pages fetched now. Used by `manage.py experiment`
(CSV and PNG) and by the dashboard (SVG), so both show the same curve.
"""
from __future__ import annotations

from crawlweb.models import Crawl
from frontier.harvest_chart import Chart, Series, harvest_chart
from frontier.models import SiteVerdict


def harvest_curve(crawl: Crawl) -> list[tuple[int, int]]:
    points, found = [(0, 0)], 0
    for at in (SiteVerdict.objects.filter(crawl=crawl, bilingual=True).order_by("pages_fetched_at_decision", "id")
               .values_list("pages_fetched_at_decision", flat=True)):
        found += 1
        points.append((min(at, crawl.pages_fetched), found))
    points.append((crawl.pages_fetched, found))
    return points


def crawl_label(crawl: Crawl) -> str:
    return f"#{crawl.pk} {crawl.strategy.upper()} {crawl.name}"


def chart_for(crawls: list[Crawl]) -> Chart:
    return harvest_chart([Series(crawl_label(c), tuple(harvest_curve(c))) for c in crawls])
