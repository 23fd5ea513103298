"""Which evaluations feed training, for the retraining page: only the judgments of *improve*
evaluations train (training.services.judged says why estimate items never do). The page lists both
kinds, so an admin whose "Train now" is refused sees where the judged examples must come from."""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q

from labeling.models import Evaluation
from labeling.verdicts import final_verdict
from training.services.judged import LABELS

RECENT_EVALUATIONS = 20


@dataclass
class EvaluationSource:
    evaluation: Evaluation
    judged: int  # items with a judgment or an admin's decision
    yes: int = 0  # final verdicts that train as 1 (improve evaluations only)
    no: int = 0  # final verdicts that train as 0

    @property
    def trains(self) -> bool:
        return self.evaluation.purpose == Evaluation.Purpose.IMPROVE


def _labels_of(evaluation: Evaluation) -> tuple[int, int]:
    decided = Q(assignments__judgment__isnull=False) | Q(adjudication__isnull=False)
    items = evaluation.items.filter(decided).distinct().select_related("adjudication")
    labels = [LABELS.get(v.verdict) for v in map(final_verdict, items) if v is not None]
    return labels.count(1), labels.count(0)


def evaluation_sources(limit: int = RECENT_EVALUATIONS) -> list[EvaluationSource]:
    """The most recent evaluations, improve ones first, with what their judgments give training."""
    decided = Q(items__assignments__judgment__isnull=False) | Q(items__adjudication__isnull=False)
    evaluations = (Evaluation.objects.annotate(judged=Count("items", filter=decided, distinct=True))
                   .order_by("-created_at")[:limit])
    sources = []
    for evaluation in evaluations:
        source = EvaluationSource(evaluation, evaluation.judged)
        if source.trains:
            source.yes, source.no = _labels_of(evaluation)
        sources.append(source)
    return sorted(sources, key=lambda s: not s.trains)


