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


@dataclass
class AddResult:
    added: int = 0
    new_ids: list[int] = field(default_factory=list)
    rejected: Counter = field(default_factory=Counter)


def add_targets(crawl: Crawl, candidates: list[Candidate], *, origin: str, depth: int = 0,
                source_page=None, source_site: str | None = None, config: CrawlConfig | None = None) -> AddResult:
    config = config or CrawlConfig.for_crawl(crawl)
    result = AddResult()
    if depth > crawl.max_depth:
        result.rejected["too deep"] += len(candidates)
        return result
    accepted: dict[str, Candidate] = {}
    for candidate in candidates:
        try:
            url = normalize_url(candidate.url_as_linked, session_params=config.session_params,
                                host_aliases=config.host_aliases)
        except InvalidURL as error:
            result.rejected[f"invalid: {error}"] += 1
            continue
        reason = validate_url(url, config.rules, max_length=config.max_url_length)
        if reason:
            result.rejected[reason] += 1
            continue
        host = urlsplit(url).hostname
        if source_site and not crawl.follow_out_of_site and site_name(host) != source_site:
            result.rejected["out of site"] += 1
            continue
        accepted.setdefault(url, candidate)
    if not accepted:
        return result
    hosts = hosts_for({urlsplit(url).hostname for url in accepted})
    rows = []
    for url, c in accepted.items():
        host = hosts[urlsplit(url).hostname]
        rows.append(Target(
            crawl=crawl, url=url, url_as_linked=c.url_as_linked[:2000], host=host, site_id=host.site_id,
            origin=origin, source_page=source_page, anchor_text=c.anchor_text[:1000],
            text_around=c.text_around[:2000], img_alt=c.img_alt[:500], img_src=c.img_src[:2000],
            depth=depth, priority=-float(depth) if c.priority is None else c.priority,
        ))
    known = set(Target.objects.filter(crawl=crawl, url__in=list(accepted)).values_list("url", flat=True))
    fresh = [row for row in rows if row.url not in known]
    Target.objects.bulk_create(fresh, ignore_conflicts=True, batch_size=500)
    # ignore_conflicts leaves primary keys unset: read the new rows back (a racing worker may own some).
    result.new_ids = list(Target.objects.filter(crawl=crawl, url__in=[row.url for row in fresh])
                          .values_list("id", flat=True))
    result.added = len(result.new_ids)
    return result
