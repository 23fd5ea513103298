"""Store what the network returned for a leased Target: Page, Links, new Targets, outcome.

Everything for one Target is written in one transaction, so a worker killed half-way leaves
either nothing or everything; the Target's lease then expires and the page is fetched again.
A Page is keyed by the MD5 of its content per crawl: a second URL with the same content points
to the same Page, and re-running a step never duplicates pages or links.
"""
from __future__ import annotations

import hashlib
from datetime import datetime, timedelta, timezone as dt_timezone
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from crawlweb.crawler.charset import decode_html
from crawlweb.crawler.fetch import (
    NOT_HTML, TOO_LARGE, FetchResult, backoff_seconds, classify_content, is_transient,
)
from crawlweb.crawler.htmlparse import parse_html
from crawlweb.crawler.robots import RobotsPolicy
from crawlweb.crawler.urls import InvalidURL, normalize_url, site_name
from crawlweb.models import Crawl, Host, Link, Page
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.followups import StepResult
from crawlweb.services.leasing import Lease, release_host
from crawlweb.services.network import NetworkOutcome
from crawlweb.services.page_language import identify_page_language
from crawlweb.services.targets import Candidate, add_targets
from frontier.models import Target
from frontier.strategies import strategy_for
from frontier.strategies.base import LinkOut

# Outcomes that still give a page to store: no error, a body cut at the size cap, a non-HTML document.
PAGE_KEEPING_KINDS = (None, TOO_LARGE, NOT_HTML)
# Canonical links are recorded but not followed: the canonical page is usually linked anyway.
FOLLOWED_LINK_KINDS = ("a", "area", "frame", "alternate", "onclick", "refresh")
KEPT_HEADERS = ("content-type", "content-language", "etag", "last-modified", "server", "location")


_parsed_policies: dict[tuple[int, float], RobotsPolicy] = {}


def robots_policy(host: Host) -> RobotsPolicy | None:
    """The host's cached robots policy, or None when it must be (re)fetched.

    Parsed policies are kept per process, keyed by host and expiry, so robots.txt is parsed once
    per host rather than once per page."""
    if host.robots_expires_at is None or host.robots_expires_at <= timezone.now() or not host.robots:
        return None
    key = (host.pk, host.robots_expires_at.timestamp())
    policy = _parsed_policies.get(key)
    if policy is None:
        if len(_parsed_policies) > 10000:
            _parsed_policies.clear()
        policy = _parsed_policies[key] = RobotsPolicy.from_dict(host.robots)
    return policy


def host_interval(host: Host, config: CrawlConfig) -> float:
    """Crawl-delay wins over the configured interval when it is larger."""
    return max(config.host_interval, host.crawl_delay or 0.0)


def record_outcome(crawl: Crawl, lease: Lease, outcome: NetworkOutcome, config: CrawlConfig,
                   step: StepResult | None = None) -> None:
    """Store one Target's outcome; what it adds (pages, Targets) is noted on ``step``."""
    step = step if step is not None else StepResult(crawl.pk)
    target, host = lease.target, lease.host
    with transaction.atomic():
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
        else:
            _record_fetch(crawl, target, outcome.result, config, step)
        # lease.host was read when leased; _save_robots updated it in place if Crawl-delay changed.
        ended = datetime.fromtimestamp(outcome.finished_at, tz=dt_timezone.utc) if outcome.finished_at else None
        release_host(host.pk, host_interval(host, config), ended)


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


def _record_fetch(crawl: Crawl, target: Target, result: FetchResult, config: CrawlConfig, step: StepResult) -> None:
    if result.status is not None:
        crawl.count_fetched()
    if result.status == 304:
        Page.objects.filter(pk=target.page_id).update(fetched_at=timezone.now())
        _finish(target, Target.State.DONE, status=304, page=target.page)
        return
    if result.status is None or result.status >= 400 or result.error_kind not in PAGE_KEEPING_KINDS:
        if is_transient(result.error_kind, result.status):
            _retry_or_fail(target, result)
        else:
            _finish(target, Target.State.FAILED, status=result.status,
                    error_kind=result.error_kind or "http_error", error=result.error or "")
        return
    not_html = classify_content(result)
    page, created, parsed = _store_page(crawl, target, result, parse=not_html is None)
    _finish(target, Target.State.DONE, status=result.status, page=page,
            error_kind=result.error_kind or not_html or "", error=result.error or "")
    if created:
        step.stored_page_ids.append(page.pk)
    if created and parsed is not None:
        step.new_target_ids += _store_links_and_targets(crawl, target, page, parsed, result, config)


def _store_page(crawl: Crawl, target: Target, result: FetchResult, *, parse: bool):
    md5 = hashlib.md5(result.body).hexdigest()
    existing = Page.objects.filter(crawl=crawl, md5=md5).first()
    if existing:
        return existing, False, None
    headers = {k: v for k, v in result.headers.items() if k in KEPT_HEADERS}
    fields = dict(crawl=crawl, site_id=target.site_id, host_id=target.host_id, url=target.url,
                  final_url=result.final_url[:2000], status_code=result.status,
                  content_type=result.content_type[:200],
                  md5=md5, size=len(result.body), truncated=result.truncated, headers=headers,
                  fetched_at=timezone.now(), modified_at=_http_date(result.headers.get("last-modified")))
    parsed = None
    if parse:  # HTML (or text): decode, parse, identify the language
        text, charset = decode_html(result.body, _header_charset(result.headers.get("content-type", "")))
        parsed = parse_html(text, result.final_url, window_words=settings.CRAWLER_TEXT_WINDOW_WORDS)
        guess = identify_page_language(parsed, result.final_url)
        fields.update(charset=charset[:50], title=db_text(parsed.title or "")[:1000], text=db_text(parsed.text),
                      headings=parsed.headings[:50], meta_keywords=", ".join(parsed.meta_keywords)[:2000],
                      meta_description=(parsed.meta_description or "")[:2000],
                      canonical_url=(parsed.canonical_url or "")[:2000],
                      html_lang=(parsed.lang or "")[:32], language=guess[0], script=guess[1])
    try:
        with transaction.atomic():
            return Page.objects.create(**fields), True, parsed
    except IntegrityError:  # another worker stored the same content first
        return Page.objects.get(crawl=crawl, md5=md5), False, None


def _store_links_and_targets(crawl: Crawl, target: Target, page: Page, parsed, result: FetchResult,
                             config: CrawlConfig) -> list[int]:
    """Store the page's links and schedule its outlinks; returns the ids of new Targets."""
    source_site = site_name(target.host.name)
    links, outs = [], []
    for _from, hop_to, _status in result.redirects:
        made = _link(page, hop_to, kind="redirect", source_site=source_site, config=config)
        if made is not None:
            links.append(made[0])
    for parsed_link in parsed.links:
        text_around = " ".join(filter(None, [parsed_link.text_before, parsed_link.text_after]))
        made = _link(page, parsed_link.url, kind=parsed_link.kind, source_site=source_site, config=config,
                     anchor_text=parsed_link.anchor_text or "", text_around=text_around,
                     img_alt=parsed_link.img_alt or "", img_src=parsed_link.img_src or "",
                     rel=parsed_link.rel or "", hreflang=parsed_link.hreflang or "")
        if made is None:
            continue
        link, target_site = made
        links.append(link)
        if parsed_link.kind in FOLLOWED_LINK_KINDS:
            candidate = Candidate(parsed_link.url, link.anchor_text, link.text_around, link.img_alt, link.img_src)
            outs.append(LinkOut(candidate, link.out_of_site, target_site))
    Link.objects.bulk_create(links, batch_size=500)
    if result.final_url != target.url:
        _mark_redirect_target(crawl, target, page, result, config)
    # The crawl's strategy decides which links become Targets, in which queue, at which priority.
    by_origin: dict[str, list[Candidate]] = {}
    for planned in strategy_for(crawl).targets_for_page(target, page, parsed, outs):
        planned.candidate.priority = planned.priority
        by_origin.setdefault(planned.origin, []).append(planned.candidate)
    return [new_id for origin, candidates in by_origin.items()
            for new_id in add_targets(crawl, candidates, origin=origin, depth=target.depth + 1, source_page=page,
                                      source_site=source_site, config=config).new_ids]


def _link(page, url_as_linked, *, kind, source_site, config, **contexts) -> tuple[Link, str] | None:
    """The Link row for a URL seen on ``page`` and the site it points to; None for an invalid URL."""
    try:
        normalized = normalize_url(url_as_linked, session_params=config.session_params,
                                   host_aliases=config.host_aliases)
    except InvalidURL:
        return None
    target_site = site_name(urlsplit(normalized).hostname or "")
    link = Link(page=page, target_url=normalized[:2000], url_as_linked=url_as_linked[:2000], kind=kind,
                out_of_site=target_site != source_site,
                **{k: db_text(v)[:2000] if isinstance(v, str) else v for k, v in contexts.items()})
    return link, target_site


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


def db_text(text: str) -> str:
    """PostgreSQL text cannot hold NUL characters; broken pages and robots files do contain them."""
    return text.replace("\x00", "") if "\x00" in text else text


def _header_charset(content_type: str) -> str | None:
    for part in content_type.split(";")[1:]:
        key, _, value = part.strip().partition("=")
        if key.lower() == "charset" and value:
            return value.strip("\"' ")
    return None


def _http_date(value: str | None):
    if not value:
        return None
    try:
        return parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
