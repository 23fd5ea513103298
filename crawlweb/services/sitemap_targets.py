"""Sitemaps in a crawl: which sitemaps a host gets, and which Targets a fetched sitemap gives.

A host's sitemaps (the ``Sitemap:`` lines of its robots.txt on the same site, else ``/sitemap.xml``,
crawler.sitemaps.root_sitemaps) become Targets of origin "sitemap" once per host and crawl. They
are fetched like any Target (robots.txt, politeness, WARC, budget); a fetched sitemap's entries and,
one level down, the sitemaps an index names become Targets of origin "sitemap" too, at most
CRAWLER_SITEMAP_MAX_URLS per host. A missing sitemap (404, 410) is recorded as "no_sitemap", a
skip, not a failure (storing.py).

When: a host's sitemaps are one more link of the first HTML page of the host whose links the
crawl's strategy follows (Strategy.opens_sitemaps, asked in storing.py): every page for
breadth-first and FC, a page the topic filter finds relevant for FocC. OBFC and COBFC look for sites, not pages, and do not follow in-site links, so
a sitemap on every site they touch would cost a page per site; they ask only for the sitemaps of
sites judged bilingual, when their queues run dry (frontier.strategies.refill): those sites'
pages are the ones worth pairing. A crawl with config ``"sitemaps": false`` asks for none.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count

from crawlweb.crawler.candidates import Candidate
from crawlweb.crawler.robots import RobotsPolicy
from crawlweb.crawler.sitemaps import root_sitemaps
from crawlweb.crawler.urls import InvalidURL, normalize_url
from crawlweb.models import Host, Link, Target
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.targets import NewTarget

# An index's sitemaps are read; sitemaps named by those are not (sitemaps.org forbids nested
# indexes; a site that nests them anyway cannot send the crawl down an endless chain).
MAX_SITEMAP_NESTING = 1
_robots_lines: dict[tuple[int, float], list[str]] = {}


@dataclass
class SitemapStart:
    """A host the crawl has a stored page of: where its root sitemaps are looked for."""

    page_url: str
    host: Host
    depth: int  # of the sitemaps: one more than the page's (robots.txt or convention leads there)
    source_page: object = None  # the stored Page that led to the host's sitemaps


def robots_sitemap_lines(host: Host) -> list[str]:
    """The ``Sitemap:`` lines of the host's stored robots.txt (an expired one still names the
    site's sitemaps best); none when it was never fetched or had no rules."""
    if not host.robots:
        return []
    key = (host.pk, host.robots_expires_at.timestamp() if host.robots_expires_at else 0.0)
    if key not in _robots_lines:
        if len(_robots_lines) > 10000:
            _robots_lines.clear()
        try:
            _robots_lines[key] = RobotsPolicy.from_dict(host.robots).sitemaps()
        except ValueError:  # a stored policy from an older layout: no lines rather than no crawl
            _robots_lines[key] = []
    return _robots_lines[key]


def root_sitemap_targets(crawl, config: CrawlConfig, starts: list[SitemapStart]) -> list[NewTarget]:
    """Each start's host's root sitemaps that are not Targets of the crawl yet (one query)."""
    if not config.sitemaps:
        return []
    wanted: dict[str, NewTarget] = {}
    for start in starts:
        for url, why in root_sitemaps(start.page_url, robots_sitemap_lines(start.host)):
            try:
                normalized = normalize_url(url, session_params=config.session_params,
                                           host_aliases=config.host_aliases)
            except InvalidURL:
                continue
            # Breadth-first priority of the page that led here: leased before that page's links,
            # as a sitemap names the host's pages at once.
            candidate = Candidate(url, text_around=why, normalized=normalized, priority=1.0 - start.depth)
            wanted.setdefault(normalized, NewTarget(candidate, Target.Origin.SITEMAP, start.depth, start.source_page))
    if not wanted:
        return []
    known = set(Target.objects.filter(crawl=crawl, url__in=list(wanted)).values_list("url", flat=True))
    return [new for url, new in wanted.items() if url not in known]


def sitemap_entry_targets(crawl, fetched: list[tuple[Target, object, object]]) -> list[NewTarget]:
    """Targets of the fetched sitemaps ``(target, page, prepared page)``: their nested sitemaps
    (MAX_SITEMAP_NESTING) and their pages on the sitemap's own site, at most
    CRAWLER_SITEMAP_MAX_URLS Targets of origin "sitemap" per host."""
    if not fetched:
        return []
    hosts = {target.host_id for target, _, _ in fetched}
    taken = dict(Target.objects.filter(crawl=crawl, host_id__in=hosts, origin=Target.Origin.SITEMAP)
                 .values("host_id").annotate(n=Count("pk")).values_list("host_id", "n"))
    # A sitemap named by another sitemap (its source page has sitemap links) is one level down.
    parents = {target.source_page_id for target, _, _ in fetched if target.source_page_id}
    nested_parents = set(Link.objects.filter(page_id__in=parents, kind="sitemap")
                         .values_list("page_id", flat=True).distinct())
    out: list[NewTarget] = []
    for target, page, prepared in fetched:
        follow_nested = MAX_SITEMAP_NESTING > (1 if target.source_page_id in nested_parents else 0)
        nested = set(prepared.nested_sitemaps or ())
        for link in prepared.links:
            values = link.values
            if values["kind"] != "sitemap" or values["out_of_site"] or link.candidate is None:
                continue
            if values["target_url"] in nested and not follow_nested:
                continue
            if taken.get(target.host_id, 0) >= settings.CRAWLER_SITEMAP_MAX_URLS:
                break
            taken[target.host_id] = taken.get(target.host_id, 0) + 1
            out.append(NewTarget(link.candidate, Target.Origin.SITEMAP, target.depth + 1, page))
    return out
