"""Fetch one URL for a crawl outside its crawl steps, politely and on the crawl's page budget.

The Bilingual Site Detector reads a few pages of a site to decide whether it is bilingual. Those
are real requests to the site, so they go the way a crawl step's do: the URL becomes a Target of
the crawl, the host is claimed (one request in flight, its politeness clock respected), robots.txt
is obeyed (fetched first when the host has no fresh copy), the shared Fetcher sends the request,
the WARC file records it, and ``record_batch`` stores the Page (language identified, links kept)
and counts it in ``Crawl.pages_fetched``. A page the crawl already stored is not fetched again.

A job that fetches several pages uses one ``PoliteFetcher``: the crawl's settings and each Host row
are read once for it, not once per fetch. Its pages go side by side (``fetch_many``, one request per
host at a time, from the crawl step's fetch threads); ``fetch`` is fetch_many of one.

The caller runs the follow-ups of what was stored (``StepResult``) when it is ready to, so a
follow-up does not start a second decision about the site being decided.
"""
from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from functools import cached_property
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from crawlweb.crawler.urls import InvalidURL, normalize_url
from crawlweb.models import Crawl, Host, Page, Target
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.followups import StepResult
from crawlweb.services.hosts import host_for
from crawlweb.services.fetch_threads import fetch_and_prepare, fetch_pool
from crawlweb.services.leasing import (EXTRA_WAIT_S, POLL_S, Lease, claim_hosts_now, expired_lease,
                                       room_read_afresh)
from crawlweb.services.network import fetcher_for, warc_writer_for
from crawlweb.services.storing import host_interval, record_batch, robots_policy
from crawlweb.services.stored_pages import pages_at
from crawlweb.services.targets import Candidate, NewTarget, add_new_targets

# A robots.txt fetch takes the host's slot, then the page itself: at most this many requests.
MAX_ROUNDS = 2
HELD = (Crawl.State.PAUSED, Crawl.State.STOPPED)


@dataclass
class PoliteFetch:
    """What one fetch gave: the page (stored now or before) or why there is none."""

    page: Page | None = None
    downloaded: bool = False  # a request was made and counted in the crawl's pages
    reason: str = ""  # no page: budget, paused, stopped, invalid, robots, busy, not_fetchable, failed
    step: StepResult = field(default_factory=lambda: StepResult(0))


class PoliteFetcher:
    """Fetches for one job (a detector job reads a few pages of each of its
    sites): the crawl's settings are read once and each Host row found once, not per fetch. A host's
    clock and robots.txt are still read fresh where they matter, after it is claimed."""

    def __init__(self, crawl: Crawl):
        self.crawl = crawl
        self._hosts: dict[str, Host] = {}

    @cached_property
    def config(self) -> CrawlConfig:  # read at the first fetch: a job that decides without requests makes none
        return CrawlConfig.for_crawl(self.crawl)

    def host(self, name: str) -> Host:
        if name not in self._hosts:
            self._hosts[name] = host_for(name)
        return self._hosts[name]

    def remember(self, host: Host) -> Host:
        """The host as read afresh, for this job's later fetches."""
        self._hosts[host.name] = host
        return host

    def fetch(self, url: str, *, origin: str, source_page: Page | None = None, depth: int = 0) -> PoliteFetch:
        """One URL: fetch_many of one request, what storing it calls for noted on the outcome's ``step``."""
        step = StepResult(self.crawl.pk)
        [outcome] = self.fetch_many([FetchRequest(url, origin, source_page, depth)], step)
        outcome.step = step
        return outcome

    def fetch_many(self, requests: list[FetchRequest], step: StepResult) -> list[PoliteFetch]:
        """fetch() of many URLs side by side, one request per host at a time: the stored pages read in one
        statement, the hosts claimed, the Targets added and leased in a few, the requests sent from the fetch
        threads and their pages stored as one batch (what storing calls for noted on ``step``). A detector job
        reads the next page of each of its sites this way: one by one, each fetch cost some fifteen statements.
        A host whose clock runs is waited for as fetch() waits; a robots.txt fetch takes its host's turn."""
        crawl, config = self.crawl, self.config
        outcomes = [PoliteFetch(step=StepResult(crawl.pk)) for _ in requests]
        keys: dict[int, str] = {}
        for i, request in enumerate(requests):
            try:
                keys[i] = normalize_url(request.url, session_params=config.session_params,
                                        host_aliases=config.host_aliases)
            except InvalidURL:
                outcomes[i].reason = "invalid"
        hosts = {i: self.host(urlsplit(key).hostname or "") for i, key in keys.items()}
        stored = pages_at(crawl.pk, [(key, hosts[i].site_id) for i, key in keys.items()])
        todo, first_of_key = [], {}
        for i, key in keys.items():
            policy = robots_policy(hosts[i])
            if key in stored:
                outcomes[i].page = stored[key]
            elif policy is not None and not policy.allows(key, settings.CRAWLER_USER_AGENT):
                outcomes[i].reason = "robots"
            elif key in first_of_key:
                continue  # the same URL twice: its first request's outcome, copied below
            else:
                first_of_key[key] = i
                todo.append(i)
        turns = _Turns(self, requests, keys, hosts, outcomes, step)
        turns.run(todo)
        for i, key in keys.items():
            if first_of_key.get(key, i) != i:
                first = outcomes[first_of_key[key]]
                outcomes[i].page, outcomes[i].reason = first.page, first.reason
        return outcomes


@dataclass
class FetchRequest:
    """One URL for PoliteFetcher.fetch_many, with what its Target is made with."""
    url: str
    origin: str
    source_page: Page | None = None
    depth: int = 0


class _Turns:
    """fetch_many's requests, in turns: each turn claims the free host of every waiting request (one
    request per host), fetches those side by side and stores them together; a request whose host is
    held waits for a later turn, up to fetch()'s wait, then gives up ("busy")."""

    def __init__(self, fetcher: PoliteFetcher, requests, keys, hosts, outcomes, step: StepResult):
        self.fetcher, self.crawl, self.config = fetcher, fetcher.crawl, fetcher.config
        self.requests, self.keys, self.hosts, self.outcomes, self.step = requests, keys, hosts, outcomes, step
        self.created: dict[str, str] = {}  # URL: origin, of the Targets made for these fetches

    def run(self, todo: list[int]) -> None:
        crawl = self.crawl
        now = time.monotonic()
        deadlines = {i: now + 2 * host_interval(self.hosts[i], self.config) + EXTRA_WAIT_S for i in todo}
        goes = dict.fromkeys(todo, 0)
        while todo:
            if not _pages_left(crawl) or crawl.state in HELD:
                for i in todo:
                    self.outcomes[i].reason = "budget" if crawl.state not in HELD else crawl.state
                break
            turn, later, host_ids = [], [], set()
            for i in todo:
                (later if self.hosts[i].pk in host_ids else turn).append(i)
                host_ids.add(self.hosts[i].pk)
            waits = claim_hosts_now([self.hosts[i].pk for i in turn])
            claimed = [i for i in turn if waits[self.hosts[i].pk] == 0]
            for i in turn:
                if i in claimed:
                    goes[i] += 1
                elif time.monotonic() >= deadlines[i]:
                    self.outcomes[i].reason = "busy"
                else:
                    later.append(i)
            again = self._fetch(claimed) if claimed else []
            again = [i for i in again if goes[i] < MAX_ROUNDS]
            if not claimed and later:
                time.sleep(min(min(waits.values()), POLL_S))
            todo = sorted(later + again)
        if self.created:
            # Targets made for these fetches must not stay in the frontier: the crawl's strategy did not choose them.
            for origin in sorted(set(self.created.values())):
                Target.objects.filter(crawl=crawl, url__in=sorted(u for u, o in self.created.items() if o == origin),
                                      state__in=(Target.State.PENDING, Target.State.LEASED)).update(
                    state=Target.State.SKIPPED, error_kind="not_retried", lease_expires_at=None,
                    last_error=f"fetched for {origin}; not retried by the crawl")

    def _fetch(self, claimed: list[int]) -> list[int]:
        """Fetch the claimed requests' URLs and store them; returns those whose request was their host's
        robots.txt (the page waits for its next turn)."""
        crawl, config = self.crawl, self.config
        owner = f"{self.requests[claimed[0]].origin}:{uuid.uuid4().hex[:8]}"  # kept on the Targets: who fetched them
        targets = self._claim_targets(claimed, owner)
        leased = [i for i in claimed if self.keys[i] in targets]
        unleased = [i for i in claimed if self.keys[i] not in targets]
        room = room_read_afresh(crawl, besides=owner) or 0  # read now: other fetches may have stored pages since
        over = leased[max(0, room):]  # a crawl step took the last pages meanwhile
        leased = leased[:max(0, room)]
        if over:
            Target.objects.filter(pk__in=[targets[self.keys[i]].pk for i in over], lease_owner=owner).update(
                state=Target.State.PENDING, lease_owner="", lease_expires_at=None, attempts=F("attempts") - 1)
        if unleased or over:
            Host.objects.filter(pk__in=[self.hosts[i].pk for i in unleased + over]).update(busy_until=None)
        for i in over:
            self.outcomes[i].reason = "budget"
        found = pages_at(crawl.pk, [(self.keys[i], self.hosts[i].site_id) for i in unleased])
        for i in unleased:  # excluded by the crawl's URL rules, held by another worker, or ended meanwhile
            self.outcomes[i].page = found.get(self.keys[i])
            self.outcomes[i].reason = "" if self.outcomes[i].page else "not_fetchable"
        if not leased:
            return []
        fresh = Host.objects.in_bulk([self.hosts[i].pk for i in leased])  # robots.txt and Crawl-delay as left
        for i in leased:
            self.hosts[i] = self.fetcher.remember(fresh[self.hosts[i].pk])
        network, warc = fetcher_for(config.address_policy), warc_writer_for(crawl.pk)
        futures = {i: fetch_pool().submit(
            fetch_and_prepare, network, Lease(target=targets[self.keys[i]], host=self.hosts[i],
                                              source_url=_url_of(self.requests[i].source_page)), config, warc)
            for i in leased}
        fetched = {i: future.result() for i, future in futures.items()}
        record_batch(crawl, list(fetched.values()), config, self.step)
        pages = _pages_fetched([targets[self.keys[i]].pk for i in leased])
        again = []
        for i, item in fetched.items():
            if item.outcome.robots is not None:
                again.append(i)
                continue
            result = item.outcome.result
            self.outcomes[i].downloaded = result is not None and result.status is not None
            self.outcomes[i].page = pages.get(targets[self.keys[i]].pk)
            self.outcomes[i].reason = "" if self.outcomes[i].page else (
                "busy" if item.lease_lost else "robots" if item.outcome.disallowed else "failed")
        return again

    def _claim_targets(self, claimed: list[int], owner: str) -> dict[str, Target]:
        """The claimed requests' Targets (added where the crawl has none), leased to ``owner``: {url: Target}."""
        crawl = self.crawl
        keys = [self.keys[i] for i in claimed]
        made = add_new_targets(crawl, [NewTarget(Candidate(self.keys[i]), self.requests[i].origin,
                                                 min(self.requests[i].depth, crawl.max_depth),
                                                 self.requests[i].source_page, None) for i in claimed],
                               self.config).new_ids  # URLs the crawl already has are left alone
        if made:
            self.created.update(Target.objects.filter(pk__in=made).values_list("url", "origin"))
        now = timezone.now()
        Target.objects.filter(Q(state=Target.State.PENDING) | expired_lease(now), crawl=crawl, url__in=keys).update(
            state=Target.State.LEASED, lease_owner=owner, attempts=F("attempts") + 1, due_at=None,
            lease_expires_at=now + timedelta(seconds=settings.CRAWLER_LEASE_SECONDS))
        return {target.url: target for target in
                Target.objects.select_related("page", "host").filter(crawl=crawl, url__in=keys, lease_owner=owner)}


def _url_of(page: Page | None) -> str | None:
    return page.url if page is not None else None


def _pages_fetched(target_ids: list[int]) -> dict[int, Page]:
    """{target id: the page its fetch stored (or found stored with its content)}, in one read."""
    return {target.pk: target.page for target in
            Target.objects.filter(pk__in=target_ids, state=Target.State.DONE).select_related("page")}


def _pages_left(crawl: Crawl) -> bool:
    """Before claiming anything: the crawl's state read again, and room for a page by its counter (the
    requests in flight are counted once our Targets are leased, by _Turns._fetch). The crawl's time limit
    ends its detector's requests too."""
    crawl.refresh_from_db(fields=["pages_fetched", "page_budget", "state", "deadline_at"])
    return not crawl.time_is_up and crawl.budget_left > 0
