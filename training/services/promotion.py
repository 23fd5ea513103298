"""Storing a trained version, promoting it (the rule is in training.learn.comparison), and rolling back.

At most one model per kind is promoted (a partial unique constraint); promoting a new one retires
the previous. A rollback rejects the promoted version and promotes again the most recently promoted
one before it, or leaves the kind with none (the defaults apply again)."""
from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from training.models import TrainedModel, TrainingRun
from training.services.promoted import build
from training.services.trainers import Outcome

State = TrainedModel.State


@transaction.atomic
def store_outcome(outcome: Outcome, run: TrainingRun | None = None) -> TrainedModel:
    """The new version, promoted when the comparison says it is not worse, else rejected."""
    list(TrainedModel.objects.select_for_update().filter(kind=outcome.kind))  # versions of one kind, one at a time
    version = (TrainedModel.objects.filter(kind=outcome.kind).aggregate(v=Max("version"))["v"] or 0) + 1
    m = outcome.metrics
    row = TrainedModel(kind=outcome.kind, version=version, params=outcome.params, metrics=m,
                       trained_on=outcome.trained_on, run=run)
    build(row)  # refuses anything that is not exactly the kind's data, before it is stored
    row.save()
    by_site = "; folds kept each site whole" if m.get("grouped") else ""
    verdict = (f"mean F1 over {m['folds']} folds {m['new_mean']:.3f} vs {m['current_mean']:.3f}"
               + (f" at {m['threshold']:g}, AUC {m['new_auc_mean']:.3f} vs {m['current_auc_mean']:.3f}"
                  if "new_auc_mean" in m else "") + f" ({m['current']}{by_site})")
    if outcome.promote:
        promote(row, f"promoted: not worse, {verdict}")
    else:
        why = (f"not worse, but too few judged to promote ({m['too_few_to_promote']})" if "too_few_to_promote" in m
               else "worse")
        row.state, row.reason = State.REJECTED, f"rejected: {why}, {verdict}"[:500]
        row.save(update_fields=["state", "reason"])
        if m.get("retire_current"):
            give_way_to_default(outcome.kind, m["retire_current"])
    return row


def give_way_to_default(kind: str, measured: str) -> None:
    """The promoted version measures no better than running without one: it is rejected (a rollback
    does not bring it back) and the default decides again (the method's filter)."""
    for row in TrainedModel.objects.filter(kind=kind, state=State.PROMOTED):
        row.state = State.REJECTED
        row.reason = f"rejected after promotion: {measured} (was: {row.reason})"[:500]
        row.save(update_fields=["state", "reason"])


@transaction.atomic
def promote(row: TrainedModel, reason: str) -> None:
    TrainedModel.objects.filter(kind=row.kind, state=State.PROMOTED).exclude(pk=row.pk).update(state=State.RETIRED)
    row.state, row.reason, row.promoted_at = State.PROMOTED, reason[:500], timezone.now()
    row.save(update_fields=["state", "reason", "promoted_at"])


@transaction.atomic
def roll_back(kind: str, by: str = "") -> TrainedModel | None:
    """Reject the promoted version of ``kind``; the one promoted before it (if any) is promoted again."""
    current = TrainedModel.objects.select_for_update().filter(kind=kind, state=State.PROMOTED).first()
    if current is None:
        return None
    current.state = State.REJECTED
    current.reason = f"rolled back{' by ' + by if by else ''} (was: {current.reason})"[:500]
    current.save(update_fields=["state", "reason"])
    previous = (TrainedModel.objects.filter(kind=kind, state=State.RETIRED, promoted_at__isnull=False)
                .order_by("-promoted_at", "-version").first())
    if previous is not None:
        promote(previous, f"promoted again: v{current.version} was rolled back")
    return previous
