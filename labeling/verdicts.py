"""The verdict used downstream for an item: the admin's adjudication, else what its judges agreed
on, else its single judgment. Skips count for no side."""
from __future__ import annotations

from typing import NamedTuple

from labeling.models import Adjudication, EvaluationItem, Judgment, Verdict


class FinalVerdict(NamedTuple):
    verdict: str
    category: str
    source: str  # "adjudication", "agreement" or "single"


def final_verdict(item: EvaluationItem) -> FinalVerdict | None:
    """None when nobody has judged the item yet, or its judges disagree and no admin has decided."""
    try:
        adjudication = item.adjudication
    except Adjudication.DoesNotExist:
        adjudication = None
    if adjudication is not None:
        return FinalVerdict(adjudication.verdict, adjudication.category, "adjudication")
    judgments = [j for j in Judgment.objects.filter(assignment__item=item) if j.verdict != Verdict.SKIP]
    return verdict_of_judgments([(j.verdict, j.category) for j in judgments])


def verdict_of_judgments(answers: list[tuple[str, str]]) -> FinalVerdict | None:
    """Agreement means the same verdict and the same category from every judge."""
    distinct = set(answers)
    if len(distinct) != 1:
        return None
    verdict, category = distinct.pop()
    return FinalVerdict(verdict, category, "single" if len(answers) == 1 else "agreement")
