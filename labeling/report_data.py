"""An evaluation's items with their judgments and final verdicts, read in three queries and held
as plain records, so the report, its item lists and its downloads all count the same rows."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from labeling.models import Adjudication, Evaluation, EvaluationItem, Judgment, Verdict
from labeling.verdicts import FinalVerdict, verdict_of_judgments

# The strata that hold the machine's positive output, whose precision is the one to estimate
# (labeling.populations names them): pairs the filter kept, sites called bilingual, links predicted.
POSITIVE_STRATA = ("kept", "bilingual", "predicted translation")
OUTCOME_OF_VERDICT = {Verdict.YES: "correct", Verdict.PARTIAL: "partial", Verdict.NO: "wrong"}


@dataclass(frozen=True)
class JudgmentRecord:
    evaluator: str
    verdict: str
    category: str
    at: datetime
    seconds: float | None


@dataclass
class ItemRecord:
    id: int
    position: int
    label: str
    stratum: str
    stratum_size: int
    purpose: str
    method: str  # a pair's proposing method; "detector" for sites; a link's kind
    judgments: list[JudgmentRecord] = field(default_factory=list)
    adjudication: FinalVerdict | None = None

    @property
    def answers(self) -> list[JudgmentRecord]:
        """Judgments that say something (a skip counts for no side)."""
        return [j for j in self.judgments if j.verdict != Verdict.SKIP]

    @property
    def final(self) -> FinalVerdict | None:
        """As labeling.verdicts.final_verdict: the adjudication, else the judges' common answer."""
        if self.adjudication is not None:
            return self.adjudication
        return verdict_of_judgments([(j.verdict, j.category) for j in self.answers])

    @property
    def outcome(self) -> str | None:
        final = self.final
        return OUTCOME_OF_VERDICT.get(final.verdict) if final else None

    @property
    def disagreed(self) -> bool:
        return len({(j.verdict, j.category) for j in self.answers}) > 1

    @property
    def positive(self) -> bool:
        return is_positive_stratum(self.stratum)

    def judged_by(self, evaluator: str) -> bool:
        return any(j.evaluator == evaluator for j in self.judgments)


def is_positive_stratum(name: str) -> bool:
    return any(name == p or name.endswith(" · " + p) for p in POSITIVE_STRATA)


def _method_of(row: dict) -> str:
    if row["pair__method"]:
        return row["pair__method"]
    if row["site_verdict_id"]:
        return "detector"
    return row["link__kind"] or "unknown"


def load_items(evaluation: Evaluation, item_ids: list[int] | None = None) -> list[ItemRecord]:
    """Every item of the evaluation, or only those of ``item_ids``."""
    chosen = EvaluationItem.objects.filter(evaluation=evaluation)
    if item_ids is not None:
        chosen = chosen.filter(id__in=item_ids)
    items = {
        row["id"]: ItemRecord(row["id"], row["position"], row["label"], row["stratum"], row["stratum_size"],
                              row["purpose"], _method_of(row))
        for row in chosen.values(
            "id", "position", "label", "stratum", "stratum_size", "purpose", "pair__method", "site_verdict_id",
            "link__kind")
    }
    judgments = (Judgment.objects.filter(assignment__evaluation=evaluation, assignment__item_id__in=chosen)
                 .values_list("assignment__item_id", "assignment__evaluator__username", "verdict", "category",
                              "created_at", "seconds")
                 .order_by("created_at", "id"))
    for item_id, evaluator, verdict, category, at, seconds in judgments:
        items[item_id].judgments.append(JudgmentRecord(evaluator, verdict, category, at, seconds))
    for item_id, verdict, category in Adjudication.objects.filter(item__in=chosen).values_list(
            "item_id", "verdict", "category"):
        items[item_id].adjudication = FinalVerdict(verdict, category, "adjudication")
    return sorted(items.values(), key=lambda i: i.position)
