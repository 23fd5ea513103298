"""Turn URLs (seeds, links of fetched pages) into Targets of a crawl.

Each URL is normalized and validated first; what fails is dropped here, with the reason counted,
so the frontier only ever holds URLs the crawler may fetch. Breadth-first for now: priority is
minus the depth; frontier modules re-place Targets later.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from crawlweb.crawler.urls import InvalidURL, normalize_url, site_name, validate_url
from crawlweb.models import Crawl
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.hosts import hosts_for
from frontier.models import Target


@dataclass
class Candidate:
    """A URL on its way to becoming a Target, with the link context that brought it."""

    url_as_linked: str
    anchor_text: str = ""
    text_around: str = ""
    img_alt: str = ""
    img_src: str = ""
    priority: float | None = None  # set by the crawl's strategy; None: breadth-first (minus the depth)
    normalized: str | None = None  # the normalized URL when the caller already computed it


@dataclass
class NewTarget:
    """A candidate with where it comes from: one batch may carry links of many pages."""

    candidate: Candidate
    origin: str
    depth: int = 0
    source_page: object = None  # a crawlweb Page, or None
    source_site: str | None = None  # out-of-site links are refused when the crawl stays in-site


@dataclass
class AddResult:
    added: int = 0
    new_ids: list[int] = field(default_factory=list)
    rejected: Counter = field(default_factory=Counter)


def add_targets(crawl: Crawl, candidates: list[Candidate], *, origin: str, depth: int = 0,
                source_page=None, source_site: str | None = None, config: CrawlConfig | None = None) -> AddResult:
    return add_new_targets(crawl, [NewTarget(c, origin, depth, source_page, source_site) for c in candidates],
                           config)


def add_new_targets(crawl: Crawl, new: list[NewTarget], config: CrawlConfig | None = None) -> AddResult:
    """Validate and insert Targets in three statements whatever their number; returns the new ids.

    The first candidate of a URL wins (its context and origin); URLs the crawl already has are left alone."""
    config = config or CrawlConfig.for_crawl(crawl)
    result = AddResult()
    accepted: dict[str, NewTarget] = {}
    for entry in new:
        if entry.depth > crawl.max_depth:
            result.rejected["too deep"] += 1
            continue
        url = _valid_url(entry, crawl, config, result.rejected)
        if url is not None:
            accepted.setdefault(url, entry)
    if not accepted:
        return result
    hosts = hosts_for({urlsplit(url).hostname for url in accepted})
    known = set(Target.objects.filter(crawl=crawl, url__in=list(accepted)).values_list("url", flat=True))
    fresh = []
    for url, entry in accepted.items():
        if url in known:
            continue
        c, host = entry.candidate, hosts[urlsplit(url).hostname]
        fresh.append(Target(
            crawl=crawl, url=url, url_as_linked=c.url_as_linked[:2000], host=host, site_id=host.site_id,
            origin=entry.origin, source_page=entry.source_page, anchor_text=c.anchor_text[:1000],
            text_around=c.text_around[:2000], img_alt=c.img_alt[:500], img_src=c.img_src[:2000],
            depth=entry.depth, priority=-float(entry.depth) if c.priority is None else c.priority,
        ))
    Target.objects.bulk_create(fresh, ignore_conflicts=True, batch_size=500)
    # ignore_conflicts leaves primary keys unset: read the new rows back (a racing worker may own some).
    result.new_ids = list(Target.objects.filter(crawl=crawl, url__in=[row.url for row in fresh])
                          .values_list("id", flat=True))
    result.added = len(result.new_ids)
    return result


def _valid_url(entry: NewTarget, crawl: Crawl, config: CrawlConfig, rejected: Counter) -> str | None:
    """The normalized URL when the crawl may schedule it; else None, with the reason counted."""
    url = entry.candidate.normalized
    if url is None:
        try:
            url = normalize_url(entry.candidate.url_as_linked, session_params=config.session_params,
                                host_aliases=config.host_aliases)
        except InvalidURL as error:
            rejected[f"invalid: {error}"] += 1
            return None
    reason = validate_url(url, config.rules, max_length=config.max_url_length)
    if reason:
        rejected[reason] += 1
        return None
    if entry.source_site and not crawl.follow_out_of_site and site_name(urlsplit(url).hostname) != entry.source_site:
        rejected["out of site"] += 1
        return None
    return url
