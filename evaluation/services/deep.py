"""Method "deep", the network half: is a guessed counterpart URL there?

Each unchecked guess is checked with the crawl's polite fetcher: the host's cached robots.txt
policy must allow it (a host whose robots.txt the crawl has not fetched yet is left for later),
the host is claimed as a crawl step's lease claims it (no request of any worker in flight, its
politeness clock passed; leasing.claim_hosts_now) and freed after the request with its clock
moved on, and the request is a HEAD (the Fetcher falls back to a short GET when the server does
not implement HEAD).  A URL that exists becomes a Target of the crawl (origin
"deep"): the crawl fetches it and identifies its language like any page, and the next scoring
of the site pairs it when the language is the expected one (pairs.confirmed_deep_pairs).
Every check is recorded on its DeepCheck row.

A job checks the guesses of several sites, taking turns between them: a site's guesses are all on
its host, so checked one after the other they waited the host's politeness interval each (a worker
asleep for 50 intervals a site); in turns, a host whose clock runs is passed over for the next one,
and the worker sleeps only when no host of the job is free. Each turn is a round: the next guess
of every site, their hosts claimed in one statement, the requests side by side in threads, the
hosts freed in one statement.

A guess whose form the crawl's checks found missing nearly every time is settled without a request
(evaluation/pairing/guess_forms.py; PAIRS_DEEP_FORM_MIN_TRIES, PAIRS_DEEP_FORM_MIN_RATE), but for one
in EXPLORE_EVERY.
"""
from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Q
from django.utils import timezone

from crawlweb.crawler.urls import InvalidURL, normalize_url
from crawlweb.jobs.queueing import jobs_waiting
from crawlweb.models import Crawl, Host, Site
from crawlweb.services.bulk_rows import update_columns
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.hosts import host_for, hosts_for
from crawlweb.services.leasing import POLL_S, claim_hosts_now, release_hosts
from crawlweb.services.network import fetcher_for
from crawlweb.services.storing import host_interval, robots_policy
from crawlweb.services.targets import Candidate, add_targets, release_held
from evaluation.models import CandidatePair, DeepCheck
from evaluation.pairing.guess_forms import Form, FormRecord, form_label, worth_asking
from evaluation.services.config import PairsSettings
from frontier.models import Target

QUEUED_STALE_AFTER = timedelta(minutes=30)  # a check job lost with a dead worker: its guesses may be queued again
NOT_NEEDED = "not needed: the page has a counterpart now"
EXPLORE_EVERY = 20  # one guess of a discredited form in this many is checked anyway
FORM_RECORDS_TTL_S = 30.0  # a process reads the crawl's tries and hits per form at most this often


def _exists(result) -> bool:
    """2xx at the URL itself; a redirect to the site's root is a missing page in disguise."""
    if result.status is None or not 200 <= result.status < 300:
        return False
    final = urlsplit(result.final_url)
    return not (result.redirects and final.path in ("", "/") and not final.query)


def check_one(crawl: Crawl, check: DeepCheck, config: CrawlConfig) -> float:
    """Check one guess; returns 0.0, or the seconds until its host may be free when it is not now
    (the check is then left as it was, for another turn)."""
    job = _CheckJob(crawl, config)
    try:
        if job.settle_without_request([check]):
            return 0.0
        return job.check(check)
    finally:
        job.flush()


class _CheckJob:
    """The guesses of one job, checked with as few statements as their requests allow.

    Per request only the host's claim and release are written at once (they order this worker's
    request against every other worker's); everything else is read once per job (the crawl's Targets
    at the guessed URLs, each host's row and robots policy) or written in bulk when the job ends
    (the checks' outcomes, the Targets of the pages found). Checked one statement at a time, a guess
    cost about seven round trips: the score workers spent more time on them than on scoring."""

    FLUSH_EVERY = 200  # outcomes kept before they are written: a job killed midway loses at most these

    def __init__(self, crawl: Crawl, config: CrawlConfig):
        self.crawl, self.config = crawl, config
        self.urls: dict[int, str] = {}  # check id: its guessed URL, normalized
        self.hosts: dict[str, Host] = {}
        self.recorded: dict[int, DeepCheck] = {}
        self.found: list[str] = []

    def settle_without_request(self, checks: list[DeepCheck], paired: dict[int, set[str]] | None = None) -> set[int]:
        """Record the checks that need no request (an invalid URL, a page with a counterpart now,
        a URL the crawl has as a Target); returns their ids."""
        settled: set[int] = set()
        for check in checks:
            if paired is not None and check.page_url in paired.get(check.site_id, ()):
                # guessed while its counterpart was still in the frontier
                self.record(check, exists=None, outcome=NOT_NEEDED)
                settled.add(check.pk)
                continue
            try:
                self.urls[check.pk] = normalize_url(check.guessed_url, session_params=self.config.session_params,
                                                    host_aliases=self.config.host_aliases)
            except InvalidURL as error:
                self.record(check, exists=False, outcome=f"invalid URL: {error}"[:200])
                settled.add(check.pk)
        wanted = {self.urls[check.pk] for check in checks if check.pk in self.urls}
        self._read_hosts({urlsplit(url).hostname or "" for url in wanted})
        targets = {row["url"]: row for row in Target.objects.filter(crawl=self.crawl, url__in=sorted(wanted))
                   .values("id", "url", "state", "page_id", "status_code")} if wanted else {}
        # A page a back/forward crawl holds for its refill is a counterpart now: the crawl fetches it.
        release_held(self.crawl.pk, [row["id"] for row in targets.values() if row["state"] == Target.State.HELD])
        for check in checks:
            target = targets.get(self.urls.get(check.pk))
            if target is not None and check.pk not in settled:  # the crawl fetches it (or did): no request of ours
                unfetched = target["state"] in (Target.State.PENDING, Target.State.HELD)
                exists = None if unfetched else target["page_id"] is not None
                self.record(check, exists=exists, status=target["status_code"],
                            outcome=f"a Target of the crawl ({target['state']})")
                settled.add(check.pk)
        return settled

    def settle_discredited(self, checks: list[DeepCheck], records: dict[Form, FormRecord],
                           cfg: PairsSettings) -> set[int]:
        """Record as not checked the guesses whose form the crawl found missing nearly every time (but for
        one in EXPLORE_EVERY); returns their ids."""
        settled: set[int] = set()
        for check in checks:
            form = (check.source_unit, check.target_unit)
            record = records.get(form)
            if not worth_asking(form, check.guessed_url, records, cfg.deep_form_min_tries, cfg.deep_form_min_rate,
                                EXPLORE_EVERY):
                self.record(check, exists=None, outcome=f"not checked: guesses of {form_label(form)} found "
                                                        f"{record.hits} of {record.tries} in this crawl"[:200])
                settled.add(check.pk)
        return settled

    def check(self, check: DeepCheck) -> float:
        """The request of one guess settle_without_request left: 0.0 when done (or left waiting for
        the host's robots.txt), else the seconds until its host may be free."""
        return self.check_round([check])[check.pk]

    def check_round(self, checks: list[DeepCheck]) -> dict[int, float]:
        """One request for each of ``checks`` (one per host), side by side: their hosts claimed in
        one statement, the HEADs in threads (a real site answers in 100-500 ms; one after the other,
        a job of 20 sites waited for each in turn), the hosts freed in one statement. Returns
        {check id: 0.0 when done or settled without a request, else the seconds until its host may
        be free}."""
        waits: dict[int, float] = {}
        asked: dict[int, tuple[DeepCheck, str, Host]] = {}  # host id: the check that asks it this round
        for check in checks:
            url = self.urls[check.pk]
            host = self._host(urlsplit(url).hostname or "")
            policy = robots_policy(host)
            if policy is None:
                check.outcome = "waiting: robots.txt of the host not fetched yet"
                self.recorded[check.pk] = check
                waits[check.pk] = 0.0
            elif not policy.allows(url, settings.CRAWLER_USER_AGENT):
                self.record(check, exists=False, outcome="robots.txt disallows it")
                waits[check.pk] = 0.0
            elif host.pk in asked:  # one request per host at a time: its next turn
                waits[check.pk] = 0.01
            else:
                asked[host.pk] = (check, url, host)
        # another worker's request in flight, or the host's politeness clock: passed over this round
        host_waits = claim_hosts_now(asked)
        claimed = {host_id: asked[host_id] for host_id, wait in host_waits.items() if not wait}
        for host_id, wait in host_waits.items():
            if wait:
                waits[asked[host_id][0].pk] = wait
        if not claimed:
            return waits
        fetcher = fetcher_for(self.config.address_policy)
        try:
            results = list(_head_pool().map(lambda item: fetcher.head(item[1]), claimed.values()))
        finally:
            release_hosts([(host.pk, host_interval(host, self.config), None) for _, _, host in claimed.values()])
        for (check, url, _host), result in zip(claimed.values(), results):
            exists = _exists(result)
            self.record(check, exists=exists, status=result.status,
                        outcome=(f"HEAD {result.status}" if result.status else f"error: {result.error_kind}")[:200])
            if exists:
                self.found.append(url)
            waits[check.pk] = 0.0
        return waits

    def record(self, check: DeepCheck, *, exists: bool | None, outcome: str, status: int | None = None) -> None:
        check.exists, check.outcome, check.status_code, check.checked_at = exists, outcome, status, timezone.now()
        self.recorded[check.pk] = check
        if len(self.recorded) >= self.FLUSH_EVERY:
            self.flush()

    def flush(self) -> None:
        """Write the outcomes recorded so far, and make the pages found Targets of the crawl."""
        if self.recorded:
            # update_columns, not bulk_update: Django resolves a CASE WHEN per row and column, which
            # cost this job half its time (sampled at 20,000 pages).
            checks = self.recorded.values()
            update_columns(DeepCheck, {name: {check.pk: getattr(check, name) for check in checks}
                                       for name in ("exists", "outcome", "status_code", "checked_at")})
            self.recorded = {}
        if self.found:
            add_targets(self.crawl, [Candidate(url) for url in self.found], origin=Target.Origin.DEEP_GUESS,
                        config=self.config)
            self.found = []

    def _read_hosts(self, names: set[str]) -> None:
        """The hosts of the job's guesses in one read (a host another worker is creating meanwhile is
        looked up again by _host)."""
        try:
            with transaction.atomic():
                self.hosts.update(hosts_for(names - self.hosts.keys()))
        except IntegrityError:
            pass

    def _host(self, name: str) -> Host:
        """The host's row as the job first read it: its robots policy and Crawl-delay do not change
        within a job's minute that matters here; its clock is read by each claim."""
        if name not in self.hosts:
            self.hosts[name] = host_for(name)
        return self.hosts[name]


MAX_JOB_SECONDS = 60.0  # a job hands the rest of its guesses to the next one (other jobs get their turn)
MAX_IDLE_SECONDS = 5.0  # no host of the job free for this long: leave the rest to a later job
HOST_WAIT_NOTE = "waiting: host busy or its politeness clock"
MAX_RETRY_WAIT_S = 10.0  # a guess set aside is swept again after its host's wait, at most this long (a lease's
#                          expiry is an upper bound: the step usually frees the host within seconds)


def check_deep_pages(crawl_id: int, site_ids, limit: int) -> int:
    """Check up to ``limit`` unchecked guesses of each of the sites (a site id or a list), in turns
    between the sites; returns how many were checked. Stops after MAX_JOB_SECONDS.

    When no host of the job is free and other jobs wait for the worker while the crawl runs, the sites
    left are set aside (DeepCheck.retry_at: the crawl's steps queue them again once their hosts' waits
    are over, claim_guesses_due) and the job ends: the worker does not sleep out politeness clocks
    while crawl steps and scoring wait (sleeping was three fifths of these jobs' time on a web where
    one site in eleven asks a Crawl-delay). Otherwise (the crawl not running, no step would sweep
    them; or nothing else to run) the job sleeps for the clocks, as long as some host frees within
    MAX_IDLE_SECONDS."""
    site_ids = [site_ids] if isinstance(site_ids, int) else list(site_ids)
    crawl = Crawl.objects.get(pk=crawl_id)
    config = CrawlConfig.for_crawl(crawl)
    paired: dict[int, set[str]] = {site_id: set() for site_id in site_ids}
    for site_id, source, target in CandidatePair.objects.filter(crawl_id=crawl_id, site_id__in=site_ids).values_list(
            "site_id", "source_url", "target_url"):
        paired[site_id] |= {source, target}
    turns: dict[int, list[DeepCheck]] = {}
    for check in DeepCheck.objects.filter(crawl_id=crawl_id, site_id__in=site_ids, checked_at__isnull=True):
        queue = turns.setdefault(check.site_id, [])
        if len(queue) < limit:
            queue.append(check)
    job = _CheckJob(crawl, config)
    done, set_aside = 0, {}
    try:
        settled = job.settle_without_request([check for queue in turns.values() for check in queue], paired)
        done = sum(1 for queue in turns.values() for check in queue  # a guess not needed is not checked
                   if check.pk in settled and check.outcome != NOT_NEEDED)
        left = [check for queue in turns.values() for check in queue if check.pk not in settled]
        settled |= job.settle_discredited(left, form_records(crawl_id), PairsSettings.current())
        turns = {site_id: [check for check in queue if check.pk not in settled] for site_id, queue in turns.items()}
        turns = {site_id: queue for site_id, queue in turns.items() if queue}
        for queue in turns.values():
            queue.reverse()  # pop() from the end: the guesses in the order they were made
        checked, set_aside = _take_turns(job, turns, may_sleep=lambda: _nothing_else_to_run(crawl))
        done += checked
    finally:
        job.flush()
    retried = set_aside if crawl.state == Crawl.State.RUNNING else {}  # else no step would sweep them
    _retry_later(crawl_id, retried)  # notes why, as below
    waiting = [check.pk for site_id, queue in turns.items() if site_id not in retried  # say why a guess is
               for check in queue if check.outcome == ""]                               # still unchecked
    DeepCheck.objects.filter(pk__in=waiting).update(outcome=HOST_WAIT_NOTE)
    return done


def _nothing_else_to_run(crawl: Crawl) -> bool:
    """Sleeping for a host's clock holds nobody up: the crawl is not running (no step would sweep guesses
    set aside), or no job waits on the crawl or score queue (in-process queues are not counted: there
    the job sleeps, as it always did)."""
    crawl.refresh_from_db(fields=["state"])
    return crawl.state != Crawl.State.RUNNING or not (jobs_waiting("crawl") or jobs_waiting("score"))


def _retry_later(crawl_id: int, waits: dict[int, float]) -> None:
    """The sites' unchecked guesses are swept again by the crawl's steps once their hosts' waits are
    over (one UPDATE per distinct wait, rounded up to a quarter second)."""
    by_wait: dict[float, list[int]] = {}
    for site_id, wait in waits.items():
        by_wait.setdefault(min(MAX_RETRY_WAIT_S, -(-wait // POLL_S) * POLL_S), []).append(site_id)
    now = timezone.now()
    for wait, site_ids in by_wait.items():
        DeepCheck.objects.filter(crawl_id=crawl_id, site_id__in=site_ids, checked_at__isnull=True).update(
            queued_at=None, retry_at=now + timedelta(seconds=wait), outcome=HOST_WAIT_NOTE)


def claim_guesses_due(crawl_id: int) -> list[int]:
    """The sites with guesses set aside whose wait is over, claimed for a check job (queued_at) in one
    statement that reads only the rows set aside (a partial index): a crawl step's sweep."""
    now = timezone.now()
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {DeepCheck._meta.db_table} SET queued_at = %s, retry_at = NULL WHERE crawl_id = %s"
            " AND retry_at IS NOT NULL AND retry_at <= %s AND checked_at IS NULL RETURNING site_id",
            [adapt(now), crawl_id, adapt(now)])
        return sorted({row[0] for row in cursor.fetchall()})


_form_records: dict[int, tuple[float, dict[Form, FormRecord]]] = {}  # crawl id: (read at, records)


def form_records(crawl_id: int) -> dict[Form, FormRecord]:
    """The crawl's checked guesses counted by form: one aggregate over its checks, read again after
    FORM_RECORDS_TTL_S (a check job a second each reading 100,000 rows would cost more than it saves)."""
    now = time.monotonic()
    cached = _form_records.get(crawl_id)
    if cached is not None and now - cached[0] < FORM_RECORDS_TTL_S:
        return cached[1]
    rows = (DeepCheck.objects.filter(crawl_id=crawl_id, exists__isnull=False).order_by()
            .values("source_unit", "target_unit").annotate(tries=Count("id"), hits=Count("id", filter=Q(exists=True))))
    records = {(row["source_unit"], row["target_unit"]): FormRecord(row["tries"], row["hits"]) for row in rows}
    _form_records[crawl_id] = (now, records)
    return records


def rows_worth_storing(crawl_id: int, rows: list[DeepCheck], cfg: PairsSettings) -> list[DeepCheck]:
    """The new guess rows of one-language sites, less those of forms this crawl discredited (but for one
    in EXPLORE_EVERY): on a national web they were most of the rows, every one settled unasked."""
    if not rows:
        return rows
    records = form_records(crawl_id)
    return [row for row in rows if worth_asking((row.source_unit, row.target_unit), row.guessed_url, records,
                                                cfg.deep_form_min_tries, cfg.deep_form_min_rate, EXPLORE_EVERY)]


def _take_turns(job: _CheckJob, turns: dict[int, list[DeepCheck]], *,
                may_sleep: Callable[[], bool]) -> tuple[int, dict[int, float]]:
    """Rounds of one request per site, side by side, until every guess is checked, the job's time is
    up, or no host of the job is free; returns how many were checked and the sites set aside, with how
    long their hosts are held. ``turns`` keeps what is left.

    A site whose host would not be free within MAX_IDLE_SECONDS (a crawl step's lease, which runs to
    its expiry) is set aside at once: waiting on leases took half of these jobs' time at 100,000
    pages. When no host of the job is free, the job sleeps for the first politeness clock only if
    ``may_sleep()`` says so (and not for longer than MAX_IDLE_SECONDS in a row); else every site left is
    set aside."""
    done, deadline, idle_since = 0, time.monotonic() + MAX_JOB_SECONDS, None
    set_aside: dict[int, float] = {}  # site id: how long its host is held
    leased: dict[int, list[DeepCheck]] = {}  # the guesses of the sites set aside for a lease, put back at the end
    while turns and time.monotonic() < deadline:
        heads = {site_id: queue[-1] for site_id, queue in turns.items()}
        waits = job.check_round(list(heads.values()))
        held = {}
        for site_id, check in heads.items():
            done += check.checked_at is not None
            if waits[check.pk] > MAX_IDLE_SECONDS:
                set_aside[site_id] = waits[check.pk]
                leased[site_id] = turns.pop(site_id)
            elif waits[check.pk]:
                held[site_id] = waits[check.pk]
            else:
                turns[site_id].pop()
                if not turns[site_id]:
                    del turns[site_id]
        if not turns or len(held) < len(turns):
            idle_since = None
            continue
        # no host of the job is free
        if not may_sleep():
            set_aside.update(held)
            break
        idle_since = idle_since or time.monotonic()  # sleep until the first one is, but not for long
        if time.monotonic() - idle_since > MAX_IDLE_SECONDS:
            break
        time.sleep(min(min(held.values()), POLL_S, max(0.0, deadline - time.monotonic())))
    turns.update(leased)
    return done, set_aside


def slow_hosts_last(site_ids: list[int]) -> list[int]:
    """The sites in the order given, those whose hosts ask a longer Crawl-delay after the others (one read).

    A check job sleeps for a politeness clock only when no host of its sites is free, which is when
    only Crawl-delay hosts are left with guesses: spread one or two to every job of a pass (one site in
    eleven on the heavy-tailed web), they made each job sleep for its own; together, their clocks run
    side by side in a few jobs."""
    delays: dict[int, float] = {}
    for site_id, delay in Host.objects.filter(site_id__in=site_ids, crawl_delay__gt=0).values_list(
            "site_id", "crawl_delay"):
        delays[site_id] = max(delay, delays.get(site_id, 0.0))
    return sorted(site_ids, key=lambda site_id: delays.get(site_id, 0.0))  # stable: the order given within a delay


HEAD_THREADS = 8  # requests of one round side by side (a job takes turns between up to 20 sites)
_head_pools: dict[int, ThreadPoolExecutor] = {}


def _head_pool() -> ThreadPoolExecutor:
    """The process's threads for deep-check requests (made again in a forked child)."""
    pool = _head_pools.get(os.getpid())
    if pool is None:
        pool = _head_pools[os.getpid()] = ThreadPoolExecutor(HEAD_THREADS, thread_name_prefix="deep-head")
    return pool


def frontier_done(crawl_id: int, site_ids) -> bool:
    """No Target of the site is waiting: a page without counterpart now has none the links lead to,
    which is when the method's deep pages are worth a request."""
    return bool(frontier_done_sites(crawl_id, {0: list(site_ids)}))


def frontier_done_sites(crawl_id: int, groups: dict[int, list[int]]) -> list[int]:
    """frontier_done of many sites at once: of {site id: its group's Site ids}, the sites none of whose
    group's Targets is waiting, in one query."""
    members = {member for group in groups.values() for member in group}
    waiting = set(Target.objects.filter(crawl_id=crawl_id, site_id__in=members,
                                        state__in=(Target.State.PENDING, Target.State.LEASED))
                  .order_by().values_list("site_id", flat=True).distinct())
    return sorted(site_id for site_id, group in groups.items() if not waiting & set(group))


def sites_with_unchecked(crawl_id: int):
    """The sites of the crawl with guesses no request has checked yet."""
    return Site.objects.filter(pk__in=DeepCheck.objects.filter(crawl_id=crawl_id, checked_at__isnull=True)
                               .values("site_id")).order_by("pk")


def unchecked(crawl_id: int, site_id: int) -> int:
    return DeepCheck.objects.filter(crawl_id=crawl_id, site_id=site_id, checked_at__isnull=True).count()


def sites_left_unchecked(crawl_id: int, site_ids) -> list[int]:
    """Of the sites, those with a guess still unchecked and not set aside for the crawl's steps to queue again."""
    return sorted(set(DeepCheck.objects.filter(crawl_id=crawl_id, site_id__in=list(site_ids), checked_at__isnull=True,
                                               retry_at__isnull=True)
                      .order_by().values_list("site_id", flat=True).distinct()))


def claim_unchecked(crawl_id: int, site_id: int) -> bool:
    """True when the caller won the right to queue a check of the site's guesses: some unchecked guess
    had no job queued for it (or its job is long lost). A site is scored again and again as it grows;
    one job per scoring queued thousands of checks of the same guesses, ahead of the crawl's steps."""
    return bool(claim_unchecked_sites(crawl_id, [site_id]))


def claim_unchecked_sites(crawl_id: int, site_ids) -> list[int]:
    """claim_unchecked of many sites in one statement: the sites whose check the caller won. The
    UPDATE returns the rows it flipped, so of two callers each guess goes to one."""
    site_ids = sorted(set(site_ids))
    if not site_ids:
        return []
    now = timezone.now()
    adapt = connection.ops.adapt_datetimefield_value
    marks = ", ".join(["%s"] * len(site_ids))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {DeepCheck._meta.db_table} SET queued_at = %s, retry_at = NULL WHERE crawl_id = %s"
            f" AND site_id IN ({marks})"
            " AND checked_at IS NULL AND (queued_at IS NULL OR queued_at < %s) RETURNING site_id",
            [adapt(now), crawl_id, *site_ids, adapt(now - QUEUED_STALE_AFTER)])
        return sorted({row[0] for row in cursor.fetchall()})


def release_unchecked(crawl_id: int, site_ids) -> None:
    """The sites' unchecked guesses may be claimed again (by the sites' next scoring or pass)."""
    site_ids = [site_ids] if isinstance(site_ids, int) else list(site_ids)
    DeepCheck.objects.filter(crawl_id=crawl_id, site_id__in=site_ids, checked_at__isnull=True).update(queued_at=None)
