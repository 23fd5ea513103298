"""Work that follows a crawl step: frontier placement of new Targets, site-level scoring.

Each entry of FOLLOWUPS is a function ``(crawl, step: StepResult) -> None`` called by the crawl
step after each batch it stored, in the step's own process: these steer what the crawl fetches
next (placement, the BS Detector), so they cannot wait. Entries of STEP_FOLLOWUPS have the same
signature and are called once per crawl step, with every batch of the step in one StepResult:
scoring only reads what was stored, and running its queries after every batch cost the crawl
step a fifth of its time. Each entry of FINISH_FOLLOWUPS is a function ``(crawl) -> None``
called once when the crawl finishes by itself (nothing left to fetch, or the budget spent), by
the step that moved it to "finished". A follow-up that needs time enqueues its own job (queue
"score" or "train") rather than working inline (the detector decides inline only the sites that
need no request: a few milliseconds each); its failure is logged and recorded on the
crawl, never allowed to stop the crawl.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from importlib import import_module

log = logging.getLogger(__name__)

# Dotted paths, so this module imports nothing of the apps that plug in here.
FOLLOWUPS: list[str] = [
    "frontier.discovery_followup.after_step",
    "frontier.followup.after_step",
]
STEP_FOLLOWUPS: list[str] = [
    "evaluation.followup.after_step",
]
FINISH_FOLLOWUPS: list[str] = [
    "evaluation.followup.after_finish",
    "evaluation.followup.verdicts_after_finish",  # after the pairs' last pass was queued: verdicts read them
]
# Each entry of TAKEOVER_FOLLOWUPS is a function ``(crawl) -> None`` called when a running crawl's
# steps are taken over from a process that died (embedded mode, crawlweb.jobs.chain_runner):
# the follow-up jobs that process had queued died with it, so each queues again what they would
# have done (a site's BS Detector job, a Target's placement), reading the rows, not the lost jobs.
TAKEOVER_FOLLOWUPS: list[str] = [
    "frontier.discovery_followup.after_takeover",
    "frontier.followup.after_takeover",
]
# Each entry of DRY_FOLLOWUPS is a function ``(crawl) -> int`` called when a running crawl has
# nothing left to lease, before it finishes; it may add Targets (returns how many): a strategy
# whose queues ran dry with budget left (frontier.strategies.refill).
DRY_FOLLOWUPS: list[str] = [
    "frontier.discovery_followup.when_dry",
]


@dataclass
class StepResult:
    crawl_id: int
    new_target_ids: list[int] = field(default_factory=list)
    stored_page_ids: list[int] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.new_target_ids or self.stored_page_ids)

    def add(self, other: StepResult) -> None:
        self.new_target_ids += other.new_target_ids
        self.stored_page_ids += other.stored_page_ids


def _resolve(path: str):
    module, _, name = path.rpartition(".")
    return getattr(import_module(module), name)


def run_followups(crawl, step: StepResult) -> None:
    """Every follow-up of a one-off step (seeds scheduled, a detection's fetches, a discovery round)."""
    run_batch_followups(crawl, step)
    run_step_followups(crawl, step)


def run_batch_followups(crawl, step: StepResult) -> None:
    if not step.empty:
        for path in FOLLOWUPS:
            _call(path, crawl, step)


def run_step_followups(crawl, step: StepResult) -> None:
    if not step.empty:
        for path in STEP_FOLLOWUPS:
            _call(path, crawl, step)


def run_finish_followups(crawl) -> None:
    for path in FINISH_FOLLOWUPS:
        _call(path, crawl)


def run_takeover_followups(crawl) -> None:
    for path in TAKEOVER_FOLLOWUPS:
        _call(path, crawl)


def run_dry_followups(crawl) -> int:
    """Targets the dry follow-ups added (0: the crawl may finish)."""
    return sum(_call(path, crawl) or 0 for path in DRY_FOLLOWUPS)


def _call(path: str, crawl, *args):
    try:
        return _resolve(path)(crawl, *args)
    except Exception as error:  # a scoring problem must not stop the crawl
        log.exception("follow-up %s failed for crawl %s", path, crawl.pk)
        type(crawl).objects.filter(pk=crawl.pk).update(last_error=f"{path}: {type(error).__name__}: {error}"[:5000])
