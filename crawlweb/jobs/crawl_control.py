"""Crawl commands: start, pause, resume, stop, re-harvest. State changes live here."""
from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from crawlweb.jobs.crawl_step import crawl_step
from crawlweb.jobs.queueing import enqueue
from crawlweb.models import Crawl, Target
from crawlweb.process_identity import this_process
from crawlweb.jobs import chain_runner
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.followups import StepResult, run_followups, run_takeover_followups
from crawlweb.services.targets import Candidate, add_targets

log = logging.getLogger(__name__)


class CrawlStateError(Exception):
    """The action does not apply to the crawl in its current state."""


def _enqueue_steps(crawl: Crawl) -> None:
    chain_runner.record_runner(crawl.pk)
    _queue_chains(crawl)


def _queue_chains(crawl: Crawl) -> None:
    for _ in range(max(1, crawl.parallel_steps)):
        enqueue(crawl_step, crawl.pk)


@transaction.atomic
def start_crawl(crawl: Crawl, extra_urls: list[str] | None = None) -> int:
    """Turn the seed list (and extra URLs) into Targets and start the step jobs; returns seeds added."""
    crawl = Crawl.objects.select_for_update().get(pk=crawl.pk)
    if crawl.state not in (Crawl.State.NEW, Crawl.State.FINISHED, Crawl.State.STOPPED):
        raise CrawlStateError(f"crawl {crawl.pk} is {crawl.state}; only a new, finished or stopped crawl starts")
    config = CrawlConfig.for_crawl(crawl)
    urls = list(extra_urls or [])
    if crawl.seed_list_id:
        urls += list(crawl.seed_list.seeds.values_list("url", flat=True))
    added = add_targets(crawl, [Candidate(url) for url in urls], origin=Target.Origin.SEED, config=config)
    before = Target.objects.filter(crawl=crawl, origin=Target.Origin.SEED).count() - added.added
    run_followups(crawl, StepResult(crawl.pk, new_target_ids=added.new_ids))
    crawl.state = Crawl.State.RUNNING
    crawl.started_at = crawl.started_at or timezone.now()
    crawl.finished_at = None
    crawl.deadline_at = deadline_from_now(crawl)
    crawl.status_message = unscheduled_message(len(urls), added.added, added.rejected, before)
    crawl.resumed_rounds = 0  # a start gives the follow-ups their rounds again (resume_finished_crawl)
    if crawl.status_message:
        log.warning("crawl %s: %s", crawl.pk, crawl.status_message)
    crawl.save(update_fields=["state", "started_at", "finished_at", "deadline_at", "status_message",
                              "resumed_rounds"])
    _enqueue_steps(crawl)
    return added.added


def unscheduled_message(given: int, added: int, rejected, already: int) -> str:
    """Why start URLs did not become Targets, e.g. "2 of 10 start URLs not scheduled: 2 URL longer than
    250 characters" ('' when all were); fits Crawl.status_message."""
    missing = given - added
    if missing <= 0:
        return ""
    reasons = [f"{count} {reason}" for reason, count in rejected.most_common()]
    others = missing - sum(rejected.values())
    if others > 0:
        reasons.append(f"{others} already in the crawl or the same URL once normalized"
                       if already else f"{others} the same URL once normalized")
    message = f"{missing} of {given} start URLs not scheduled: {'; '.join(reasons)}"
    return message if len(message) <= 300 else message[:299] + "…"


def deadline_from_now(crawl: Crawl):
    """The time limit counts from each start (a restarted or re-harvested crawl gets its full time again)."""
    if not crawl.time_limit_seconds:
        return None
    return timezone.now() + timedelta(seconds=crawl.time_limit_seconds)


def _transition(crawl: Crawl, allowed: tuple[str, ...], new_state: str, message: str = "") -> Crawl:
    updated = Crawl.objects.filter(pk=crawl.pk, state__in=allowed).update(state=new_state, status_message=message)
    crawl.refresh_from_db()
    if not updated:
        raise CrawlStateError(f"crawl {crawl.pk} is {crawl.state}; cannot go to {new_state}")
    return crawl


def pause_crawl(crawl: Crawl) -> Crawl:
    return _transition(crawl, (Crawl.State.RUNNING,), Crawl.State.PAUSED, "paused by the operator")


@transaction.atomic
def resume_crawl(crawl: Crawl) -> Crawl:
    """A paused crawl runs again; so does a running one whose steps nothing runs any more (embedded
    mode: the process that ran them died), in this process."""
    crawl.refresh_from_db()
    if crawl.state == Crawl.State.RUNNING:
        reason = chain_runner.why_orphaned(crawl)
        if not reason or not take_over_crawl(crawl, f"resumed by the operator: {reason}"):
            raise CrawlStateError(chain_runner.running_message(crawl))
        return crawl
    crawl = _transition(crawl, (Crawl.State.PAUSED,), Crawl.State.RUNNING)
    _enqueue_steps(crawl)
    return crawl


def resume_finished_crawl(crawl_id: int, reason: str, *, max_rounds: int) -> bool:
    """Run again a crawl that finished by itself, for Targets its follow-ups added after its end (the
    deep-page guesses the pass after the finish made and checked), with its budget and time limit
    as they are: at most ``max_rounds`` times since it was last started. False when it is not
    finished, has no budget or time left, has had its rounds, or another caller resumed it first
    (one conditional update decides)."""
    with transaction.atomic():
        resumed = (Crawl.objects.filter(pk=crawl_id, state=Crawl.State.FINISHED, resumed_rounds__lt=max_rounds,
                                        pages_fetched__lt=F("page_budget"))
                   .filter(Q(deadline_at__isnull=True) | Q(deadline_at__gt=timezone.now()))
                   .update(state=Crawl.State.RUNNING, finished_at=None, status_message=reason[:300],
                           resumed_rounds=F("resumed_rounds") + 1))
        if resumed:
            log.info("crawl %s: %s", crawl_id, reason)
            _enqueue_steps(Crawl.objects.get(pk=crawl_id))  # queued once this commits
    return bool(resumed)


def take_over_crawl(crawl: Crawl, reason: str) -> bool:
    """Run here the steps of a running crawl whose runner is gone (chain_runner.why_orphaned says why);
    False when another process took it over first: of all that find it, one wins the update."""
    me = this_process()
    message = f"steps run by {me.describe()} since {timezone.localtime():%Y-%m-%d %H:%M:%S %Z}: {reason}"
    with transaction.atomic():
        won = Crawl.objects.filter(pk=crawl.pk, state=Crawl.State.RUNNING, runner=crawl.runner).update(
            runner=str(me), runner_seen_at=timezone.now(), status_message=message[:300])
        if won:
            log.warning("crawl %s: %s", crawl.pk, message)
            if crawl.runner != str(me):  # another process's leases and queued follow-ups died with it
                chain_runner.hand_back_dead_leases(crawl, crawl.runner)
                run_takeover_followups(crawl)
            _queue_chains(crawl)
    crawl.refresh_from_db()
    return bool(won)


def kick_crawl(crawl: Crawl) -> Crawl:
    """Enqueue the crawl's step chains again: a worker killed mid-job takes its chain with it.

    Extra chains are harmless: each leases under the same locks and ends with the crawl."""
    crawl.refresh_from_db()
    if crawl.state != Crawl.State.RUNNING:
        raise CrawlStateError(f"crawl {crawl.pk} is {crawl.state}; only a running crawl is kicked")
    _enqueue_steps(crawl)
    return crawl


def stop_crawl(crawl: Crawl) -> Crawl:
    crawl = _transition(crawl, (Crawl.State.RUNNING, Crawl.State.PAUSED, Crawl.State.NEW), Crawl.State.STOPPED,
                        "stopped by the operator")
    Crawl.objects.filter(pk=crawl.pk).update(finished_at=timezone.now())
    return crawl


@transaction.atomic
def reharvest_crawl(crawl: Crawl) -> int:
    """Mark every fetched page's Target for a new (conditional) fetch and run the crawl again."""
    marked = Target.objects.filter(crawl=crawl, state=Target.State.DONE, page__isnull=False).update(
        state=Target.State.PENDING, due_at=None, attempts=0)
    crawl.refresh_from_db()
    Crawl.objects.filter(pk=crawl.pk).update(page_budget=crawl.pages_fetched + max(marked, 1) + crawl.budget_left)
    if crawl.state != Crawl.State.RUNNING:
        Crawl.objects.filter(pk=crawl.pk).update(state=Crawl.State.RUNNING, finished_at=None, status_message="",
                                                 deadline_at=deadline_from_now(crawl))
        crawl.refresh_from_db()
        _enqueue_steps(crawl)
    return marked
