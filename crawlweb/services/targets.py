"""Turn URLs (seeds, links of fetched pages) into Targets of a crawl.

Each URL is normalized and validated first; what fails is dropped here, with the reason counted,
so the frontier only ever holds URLs the crawler may fetch. Breadth-first for now: priority is
minus the depth; frontier modules re-place Targets later.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from django.db import transaction

from crawlweb.crawler.candidates import Candidate
from crawlweb.crawler.urls import InvalidURL, normalize_url, site_name, validate_url
from crawlweb.models import Crawl, Target
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.bulk_rows import TargetRow, insert_targets, lock_crawl_store
from crawlweb.services.host_queues import lock_rows_of_targets


@dataclass
class NewTarget:
    """A candidate with where it comes from: one batch may carry links of many pages."""

    candidate: Candidate
    origin: str
    depth: int = 0
    source_page: object = None  # a crawlweb Page, or None
    source_site: str | None = None  # out-of-site links are refused when the crawl stays in-site
    held: bool = False  # stored as Target.State.HELD: leased only once a refill releases it


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
    """Validate and insert Targets in a few statements whatever their number; returns the new ids.

    The first candidate of a URL wins (its context and origin); URLs the crawl already has are left
    alone. New rows are inserted (and numbered) in URL order."""
    config = config or CrawlConfig.for_crawl(crawl)
    result = AddResult()
    accepted: dict[str, TargetRow] = {}
    for entry in new:
        if entry.depth > crawl.max_depth:
            result.rejected["too deep"] += 1
            continue
        valid = _valid_url(entry, crawl, config, result.rejected)
        if valid is not None and valid[0] not in accepted:
            accepted[valid[0]] = _target_row(*valid, entry)
    if not accepted:
        return result
    # In URL order, the same for every writer: crawl steps store one batch at a time per crawl
    # (bulk_rows.lock_crawl_store), but seeds and other callers insert outside that lock, and two
    # inserts of the same new URLs in different orders can each hold a row the other waits for.
    result.new_ids = insert_targets(crawl, [accepted[url] for url in sorted(accepted)])
    result.added = len(result.new_ids)
    return result


def _target_row(url: str, host: str, entry: NewTarget) -> TargetRow:
    c = entry.candidate
    return TargetRow(
        url=url, url_as_linked=c.url_as_linked[:2000], origin=entry.origin,
        source_page_id=entry.source_page.pk if entry.source_page is not None else None,
        anchor_text=c.anchor_text[:1000], text_around=c.text_around[:2000], img_alt=c.img_alt[:500],
        img_src=c.img_src[:2000], depth=entry.depth,
        priority=-float(entry.depth) if c.priority is None else c.priority, host_name=host,
        state=Target.State.HELD if entry.held else Target.State.PENDING)


def _valid_url(entry: NewTarget, crawl: Crawl, config: CrawlConfig, rejected: Counter) -> tuple[str, str] | None:
    """(normalized URL, its host) when the crawl may schedule it; else None, with the reason counted."""
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
    host = urlsplit(url).hostname  # a valid URL has one
    if entry.source_site and not crawl.follow_out_of_site and site_name(host) != entry.source_site:
        rejected["out of site"] += 1
        return None
    return url, host


def release_held(crawl_id: int, target_ids: list[int]) -> list[int]:
    """Make these held Targets (Target.State.HELD) pending; returns the ids released, ascending. The
    locks are taken in the order a priority writer takes them (bulk_rows.write_target_priorities): the
    UPDATE raises the hosts' queue rows by trigger, which a lease batch locks before its Targets."""
    if not target_ids:
        return []
    with transaction.atomic():
        lock_crawl_store(crawl_id)
        lock_rows_of_targets(crawl_id, target_ids)
        held = sorted(Target.objects.filter(pk__in=target_ids, state=Target.State.HELD).values_list("id", flat=True))
        Target.objects.filter(pk__in=held).update(state=Target.State.PENDING)
    return held
