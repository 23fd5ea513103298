"""The train job (queue "train"): train every kind from the judgments, compare, promote or reject.

``request_training`` records a TrainingRun and enqueues ``train(run_id)`` after the transaction
commits. The job claims its run with a conditional update (pending → running), so running it twice
trains once; a failure is recorded on the run (``error``) and does not crash-loop.
"""
from __future__ import annotations

import logging
import traceback

from django.db import IntegrityError, transaction
from django.utils import timezone

from crawlweb.jobs.queueing import enqueue
from training.models import TrainingRun
from training.services.promotion import store_outcome
from training.services.trainers import TRAINERS

log = logging.getLogger(__name__)
State = TrainingRun.State


def request_training(trigger: str, *, evaluation_id: int | None = None, user=None) -> TrainingRun:
    """A run for this trigger, enqueued; an evaluation closed again gets its first run back."""
    try:
        with transaction.atomic():
            run = TrainingRun.objects.create(trigger=trigger, evaluation_id=evaluation_id, requested_by=user)
    except IntegrityError:
        return TrainingRun.objects.get(trigger=trigger, evaluation_id=evaluation_id)
    enqueue(train, run.pk, queue_name="train")
    return run


def train(run_id: int) -> None:
    claimed = TrainingRun.objects.filter(pk=run_id, state=State.PENDING).update(state=State.RUNNING)
    if not claimed:
        return  # done already, or another worker has it
    run = TrainingRun.objects.get(pk=run_id)
    summary = {}
    try:
        for trainer in TRAINERS:
            outcome = trainer()
            if outcome.skipped:
                summary[outcome.kind] = {"skipped": outcome.skipped, "trained_on": outcome.trained_on}
                continue
            row = store_outcome(outcome, run)
            summary[outcome.kind] = {"version": row.version, "state": row.state, "reason": row.reason}
    except Exception:  # recorded on the run for the operator; the job does not retry a broken input forever
        log.exception("training run %s failed", run_id)
        TrainingRun.objects.filter(pk=run_id).update(state=State.FAILED, error=traceback.format_exc()[-4000:],
                                                     summary=summary, finished_at=timezone.now())
        return
    TrainingRun.objects.filter(pk=run_id).update(state=State.DONE, summary=summary, finished_at=timezone.now())
