"""Store what the network returned for a batch of leased Targets: Pages, Links, new Targets, outcomes.

A whole batch is written in one transaction and in bulk (a handful of statements whatever the
batch size: round trips to the database were most of a step's time), so a worker killed half-way
leaves either nothing or everything; its Targets' leases then expire and they are fetched again.
A row the database refuses for its values fails that transaction: the batch is then stored item by
item, each in a transaction of its own, and only the refused item's Target fails, with the database's
reason (store_refusals.py tells a refused value from a database in trouble, which fails the step).
A Page is keyed by the MD5 of its content per crawl: a second URL with the same content points
to the same Page, and re-running a step never duplicates pages or links.
"""
from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone as dt_timezone

from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone

from crawlweb.crawler.bounded_cache import SizeBoundedCache
from crawlweb.crawler.fetch import UNEXPECTED, FetchResult, backoff_seconds, is_transient
from crawlweb.crawler.politeness import bounded_interval
from crawlweb.crawler.robots import RobotsPolicy
from crawlweb.crawler.urls import InvalidURL, normalize_url, site_name
from crawlweb.models import Crawl, Host, Page, Target
from crawlweb.services.bulk_rows import (LinkRow, case_by_id, insert_links, insert_pages, insert_skips_stored_pages,
                                         lock_crawl_store)
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.crawl_policy import CrawlStrategy, LinkOut, strategy_for
from crawlweb.services.followups import StepResult
from crawlweb.services.leasing import Lease, release_hosts
from crawlweb.services.network import NetworkOutcome
from crawlweb.services.page_prep import PreparedPage, db_text, failed_preparation, keeps_page, prepare_page
from crawlweb.services.sitemap_targets import SitemapStart, root_sitemap_targets, sitemap_entry_targets
from crawlweb.services.store_refusals import refused_for_its_values
from crawlweb.services.targets import Candidate, NewTarget, add_new_targets, add_targets

log = logging.getLogger(__name__)
# Per process, keyed by host and expiry. Bounded by the robots.txt text it holds (a policy's parse is a
# few times its text): hosts come and go over a long crawl, and some files are 500 KiB.
POLICY_CACHE_CHARS = 8_000_000
POLICY_OVERHEAD_CHARS = 2_000  # what even an empty policy costs, so many small ones count too
_parsed_policies: SizeBoundedCache[RobotsPolicy] = SizeBoundedCache(
    POLICY_CACHE_CHARS, lambda policy: len(policy.text) + POLICY_OVERHEAD_CHARS)
NO_SITEMAP_STATUSES = (404, 410)
# A site's own script (link kind "script-src") may name pages nothing else links, but most name none:
# it is fetched after the pages around it, as if it were this many levels deeper (every strategy's
# priorities span less than that: breadth-first -depth, FC (-1, 0), classifier scores [0, 1]).
SCRIPT_DEFERRAL = 3.0
HTML_TYPES = ("text/html", "application/xhtml+xml")


def robots_policy(host: Host) -> RobotsPolicy | None:
    """The host's cached robots policy, or None when it must be (re)fetched.

    Parsed policies are kept per process, keyed by host and expiry, so robots.txt is parsed once
    per host rather than once per page."""
    if host.robots_expires_at is None or host.robots_expires_at <= timezone.now() or not host.robots:
        return None
    key = (host.pk, host.robots_expires_at.timestamp())
    policy = _parsed_policies.get(key)
    if policy is None:
        policy = _parsed_policies.put(key, RobotsPolicy.from_dict(host.robots))
    return policy


def host_interval(host: Host, config: CrawlConfig) -> float:
    """Crawl-delay wins over the configured interval when it is larger (both within the bound of
    crawler.politeness, also for a Crawl-delay stored before robots.txt values were bounded)."""
    return bounded_interval(max(config.host_interval, host.crawl_delay or 0.0))


@dataclass
class Fetched:
    """One leased Target, what the network said, and (for a page to keep) the prepared page."""

    lease: Lease
    outcome: NetworkOutcome
    prepared: PreparedPage | None = None
    lease_lost: bool = False  # no request was sent: the lease ran out first (nothing to store)


def record_batch(crawl: Crawl, batch: list[Fetched], config: CrawlConfig, step: StepResult | None = None) -> None:
    """Store a batch of outcomes in one transaction; what it adds (pages, Targets) is noted on ``step``.

    When the database refuses one item's rows, the others are stored all the same, one by one."""
    step = step if step is not None else StepResult(crawl.pk)
    # A lease lost before its request leaves its Target and host to whoever holds them now.
    batch = [item for item in batch if not item.lease_lost]
    if not batch:
        return
    for item in batch:  # the crawl step prepares pages in its fetch threads; other callers may not
        if item.prepared is None and keeps_page(item.outcome.result):
            _prepare_here(item, config)
    try:
        step.add(_store_together(crawl, batch, config))
    except Exception as error:
        if not refused_for_its_values(error):
            raise
        if len(batch) == 1:
            _record_refused(crawl, batch[0], config, error)
            return
        log.warning("crawl %s: the database refused a batch of %s fetches (%s: %s); storing them one by one",
                    crawl.pk, len(batch), type(error).__name__, error)
        for item in batch:
            _store_alone(crawl, item, config, step)


def _store_together(crawl: Crawl, batch: list[Fetched], config: CrawlConfig) -> StepResult:
    """The batch in one transaction; what it added, noted only once it is committed (a transaction
    rolled back leaves no ids of rows that do not exist)."""
    added = StepResult(crawl.pk)
    with transaction.atomic():
        lock_crawl_store(crawl.pk)
        pages: list[Fetched] = []
        for item in batch:
            if item.prepared is not None:
                pages.append(item)
            else:
                _record_other(crawl, item.lease, item.outcome)
        if pages:
            _store_pages(crawl, pages, config, added)
        fetched = sum(1 for item in batch if _counts_as_fetched(item))
        if fetched:
            crawl.count_fetched(fetched)
        # lease.host was read when leased; _save_robots updated it in place if Crawl-delay changed.
        release_hosts([(item.lease.host.pk, host_interval(item.lease.host, config), _ended(item.outcome))
                       for item in batch])
    return added


def _store_alone(crawl: Crawl, item: Fetched, config: CrawlConfig, step: StepResult) -> None:
    try:
        step.add(_store_together(crawl, [item], config))
    except Exception as error:
        if not refused_for_its_values(error):
            raise
        _record_refused(crawl, item, config, error)


def _record_refused(crawl: Crawl, item: Fetched, config: CrawlConfig, error: Exception) -> None:
    """The database refused what ``item`` would store: its Target fails with the reason (error kind
    "unexpected": a value the crawler should have made storable), its fetch counts, its host is free."""
    refused = isinstance(error, DatabaseError)  # else Python failed on a value before the database saw it
    reason = (f"{'the database refused to store this fetch' if refused else 'storing this fetch failed'}: "
              f"{type(error).__name__}: {error}")
    log.error("crawl %s: %s: %s", crawl.pk, item.lease.target.url, reason, exc_info=None if refused else error)
    result = item.outcome.result
    with transaction.atomic():
        _finish(item.lease.target, Target.State.FAILED, status=result.status if result is not None else None,
                error_kind=UNEXPECTED, error=db_text(reason))
        if _counts_as_fetched(item):
            crawl.count_fetched(1)
        release_hosts([(item.lease.host.pk, host_interval(item.lease.host, config), _ended(item.outcome))])


def _counts_as_fetched(item: Fetched) -> bool:
    """A response from the page itself (not its host's robots.txt): it counts against the page budget."""
    result = item.outcome.result
    return result is not None and result.status is not None and item.outcome.robots is None


def _prepare_here(item: Fetched, config: CrawlConfig) -> None:
    """Prepare the page of ``item``; a page that breaks the preparation fails its Target, not the batch."""
    try:
        item.prepared = prepare_page(item.outcome.result, site_name(item.lease.host.name), config,
                                     window_words=settings.CRAWLER_TEXT_WINDOW_WORDS, loaded_by=item.lease.source_url)
    except Exception as error:
        log.exception("preparing %s failed unexpectedly", item.lease.target.url)
        item.outcome.result = failed_preparation(item.outcome.result, error)


def _ended(outcome: NetworkOutcome) -> datetime | None:
    return datetime.fromtimestamp(outcome.finished_at, tz=dt_timezone.utc) if outcome.finished_at else None


# --- outcomes without a page: robots.txt, refusals, errors, 304 -------------------------------------------
def _record_other(crawl: Crawl, lease: Lease, outcome: NetworkOutcome) -> None:
    target, host = lease.target, lease.host
    if outcome.robots is not None:
        _save_robots(host, outcome)
        # The robots fetch used this host's slot; the Target goes back to wait for its turn.
        Target.objects.filter(pk=target.pk).update(state=Target.State.PENDING, lease_owner="",
                                                   attempts=max(0, target.attempts - 1))
    elif outcome.robots_unavailable_until is not None:
        # RFC 9309: an unreachable robots.txt disallows everything for now; the Target waits.
        Target.objects.filter(pk=target.pk).update(
            state=Target.State.PENDING, error_kind="robots_unavailable", lease_expires_at=None,
            due_at=datetime.fromtimestamp(outcome.robots_unavailable_until, tz=dt_timezone.utc),
            last_error="robots.txt unreachable or 5xx: every path disallowed until it is fetched again")
    elif outcome.disallowed:
        _finish(target, Target.State.SKIPPED, error_kind="robots", error="disallowed by robots.txt")
    elif target.origin == Target.Origin.SITEMAP and outcome.result.status in NO_SITEMAP_STATUSES:
        # Most hosts have no /sitemap.xml: a finding about the host, not a failure to fetch.
        _finish(target, Target.State.SKIPPED, status=outcome.result.status, error_kind="no_sitemap",
                error=f"no sitemap at this address (HTTP {outcome.result.status})")
    elif outcome.result.status == 304:
        Page.objects.filter(pk=target.page_id).update(fetched_at=timezone.now())
        _finish(target, Target.State.DONE, status=304, page=target.page)
    elif is_transient(outcome.result.error_kind, outcome.result.status):
        _retry_or_fail(target, outcome.result)
    else:
        result = outcome.result
        _finish(target, Target.State.FAILED, status=result.status,
                error_kind=result.error_kind or "http_error", error=result.error or "")


def _save_robots(host: Host, outcome: NetworkOutcome) -> None:
    fetched = outcome.robots
    policy = RobotsPolicy.from_response(fetched.status, fetched.body, timezone.now().timestamp(),
                                        error=fetched.error,
                                        cache_seconds=settings.CRAWLER_ROBOTS_CACHE_SECONDS)
    stored = policy.to_dict()
    stored["text"] = db_text(stored["text"])
    host.robots = stored
    host.robots_status = policy.status
    host.robots_expires_at = datetime.fromtimestamp(policy.expires_at, tz=dt_timezone.utc)
    host.crawl_delay = policy.crawl_delay(settings.CRAWLER_USER_AGENT)
    host.save(update_fields=["robots", "robots_status", "robots_expires_at", "crawl_delay"])


def _finish(target: Target, state: str, *, status: int | None = None, error_kind: str = "",
            error: str = "", page: Page | None = None) -> None:
    Target.objects.filter(pk=target.pk).update(
        state=state, status_code=status, error_kind=error_kind, last_error=error[:2000], page=page,
        lease_expires_at=None, fetched_at=timezone.now())  # lease_owner stays: who fetched it last


def _retry_or_fail(target: Target, result: FetchResult) -> None:
    if target.attempts < settings.CRAWLER_MAX_ATTEMPTS:
        Target.objects.filter(pk=target.pk).update(
            state=Target.State.PENDING, status_code=result.status, error_kind=result.error_kind or "",
            last_error=(result.error or "")[:2000], lease_owner="", lease_expires_at=None,
            due_at=timezone.now() + timedelta(
                seconds=backoff_seconds(max(1, target.attempts), base=settings.CRAWLER_RETRY_BACKOFF)))
    else:
        _finish(target, Target.State.FAILED, status=result.status, error_kind=result.error_kind or "",
                error=result.error or "")


# --- pages ---------------------------------------------------------------------------------------------
def _store_pages(crawl: Crawl, items: list[Fetched], config: CrawlConfig, step: StepResult) -> None:
    """Pages, finished Targets, Links and new Targets of a batch, each kind in one or two statements."""
    page_of, created = _page_rows(crawl, items)
    _finish_stored(items, page_of)
    step.stored_page_ids += [page.pk for page in created.values()]

    new_links, new_targets, sitemaps, starts = [], [], [], {}
    strategy = strategy_for(crawl)  # once per batch: COBFC's reads the crawl's latest classifiers
    strategy.expect_pages(list(created.values()))
    for item in items:
        page = created.get(item.prepared.md5)
        if page is None or page.url != item.lease.target.url:
            continue  # stored before, or this batch's other URL with the same content stored it
        new_links += [_link_row(page.pk, link.values) for link in item.prepared.links]
        target = item.lease.target
        if item.prepared.nested_sitemaps is not None and target.origin == Target.Origin.SITEMAP:
            sitemaps.append((target, page, item.prepared))  # its entries: sitemap_targets, whatever the strategy
        elif item.prepared.parsed is not None:
            new_targets += _planned_targets(strategy, item, page)
        if (item.prepared.fields["content_type"] in HTML_TYPES and item.lease.host.pk not in starts
                and strategy.opens_sitemaps(target, page, item.prepared.parsed)):
            starts[item.lease.host.pk] = SitemapStart(target.url, item.lease.host, target.depth + 1, page)
        if item.outcome.result.final_url != item.lease.target.url:
            _mark_redirect_target(crawl, item.lease.target, page, item.outcome.result, config)
    insert_links(new_links)
    new_targets += sitemap_entry_targets(crawl, sitemaps)
    new_targets += root_sitemap_targets(crawl, config, list(starts.values()))
    step.new_target_ids += add_new_targets(crawl, [new for new in new_targets if not new.held], config).new_ids
    held = [new for new in new_targets if new.held]
    if held:  # after the others (a URL's first candidate wins); placed when a refill releases them
        add_new_targets(crawl, held, config)


def _link_row(page_id: int, values: dict) -> LinkRow:
    """A PreparedLink's values as a row; a redirect hop has no contexts (the columns' default, "")."""
    return LinkRow(page_id, values["target_url"], values["url_as_linked"], values["kind"],
                   values.get("anchor_text", ""), values.get("text_around", ""), values.get("img_alt", ""),
                   values.get("img_src", ""), values.get("rel", ""), values.get("hreflang", ""),
                   values["out_of_site"])


def _finish_stored(items: list[Fetched], page_of: dict[str, Page]) -> None:
    """Mark the batch's Targets done with their Page: one UPDATE per distinct outcome (usually one,
    "200, no error"), the page ids in a CASE."""
    outcomes: dict[tuple, dict[int, int]] = defaultdict(dict)
    for item in items:
        result, prepared = item.outcome.result, item.prepared
        outcome = (result.status, result.error_kind or prepared.not_html or "", (result.error or "")[:2000])
        outcomes[outcome][item.lease.target.pk] = page_of[prepared.md5].pk
    now = timezone.now()
    for (status, error_kind, error), pages in outcomes.items():
        Target.objects.filter(pk__in=sorted(pages)).update(
            state=Target.State.DONE, status_code=status, error_kind=error_kind, last_error=error,
            lease_expires_at=None, fetched_at=now, page_id=case_by_id(pages, Target._meta.get_field("page")))


def _page_rows(crawl: Crawl, items: list[Fetched]) -> tuple[dict[str, Page], dict[str, Page]]:
    """(Page by MD5 for every item, Pages this call created by MD5): existing content is reused.

    On PostgreSQL the insert itself skips content stored before and names it: one statement
    fewer per batch than looking every MD5 up first."""
    page_of = {} if insert_skips_stored_pages() else _stored_pages(crawl, {item.prepared.md5 for item in items})
    created: dict[str, Page] = {}
    now = timezone.now()
    for item in items:
        md5 = item.prepared.md5
        if md5 not in page_of and md5 not in created:
            target = item.lease.target
            created[md5] = Page(crawl=crawl, site_id=target.site_id, host_id=target.host_id, url=target.url,
                                md5=md5, fetched_at=now, **item.prepared.fields)
    lost = insert_pages(list(created.values()))
    if lost:  # another worker stored some of the same content meanwhile: its Pages are the ones
        page_of.update(_stored_pages(crawl, lost))
        created = {md5: page for md5, page in created.items() if md5 not in lost}
    page_of.update(created)
    return page_of, created


def _stored_pages(crawl: Crawl, md5s: set[str]) -> dict[str, Page]:
    return {page.md5: page for page in Page.objects.filter(crawl=crawl, md5__in=md5s).only("id", "md5", "url")}


def _planned_targets(strategy: CrawlStrategy, item: Fetched, page: Page) -> list[NewTarget]:
    """The crawl's strategy decides which links become Targets, in which queue, at which priority."""
    target, prepared = item.lease.target, item.prepared
    outs = [LinkOut(link.candidate, link.values["out_of_site"], link.target_site)
            for link in prepared.links if link.followed]
    scripts = {id(link.candidate) for link in prepared.links if link.followed and link.values["kind"] == "script-src"}
    source_site = site_name(item.lease.host.name)
    planned_targets = []
    for planned in strategy.targets_for_page(target, page, prepared.parsed, outs):
        planned.candidate.priority = planned.priority
        if id(planned.candidate) in scripts:  # a last resort: after every page the strategy ranks
            priority = -float(target.depth + 1) if planned.priority is None else planned.priority
            planned.candidate.priority = priority - SCRIPT_DEFERRAL
        planned_targets.append(NewTarget(planned.candidate, planned.origin, target.depth + 1, page, source_site,
                                         held=planned.held))
    return planned_targets


def _mark_redirect_target(crawl, target, page, result, config) -> None:
    """The final URL of a redirect is known now: record it as done so it is not fetched again."""
    add_targets(crawl, [Candidate(result.final_url)], origin=Target.Origin.REDIRECT, depth=target.depth,
                source_page=page, config=config)
    try:
        final = normalize_url(result.final_url, session_params=config.session_params,
                              host_aliases=config.host_aliases)
    except InvalidURL:
        return
    Target.objects.filter(crawl=crawl, url=final, state=Target.State.PENDING).update(
        state=Target.State.DONE, page=page, status_code=result.status, fetched_at=timezone.now())
