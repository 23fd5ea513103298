"""The report of one evaluation: precision per stratum and per method (Wilson 95 %), the stratified
estimate of the output's precision, the error breakdown, agreement and pace. Every figure is
computed from the records of labeling.report_data, and every figure comes with the filter that
lists the items behind it (``ItemFilter``), which the item list applies to the same records.

Which items count where:
- precision and the estimate: *estimate* items only (uniform random within their stratum),
  with a final verdict (adjudicated, or all judges alike); skips and undecided items count nowhere;
  a *partial* pair is not parallel, so it counts against precision (and has its own column);
- the stratified estimate covers the strata of the machine's positive output (pairs kept by the
  filter, sites called bilingual, links predicted as translations); if the evaluation's strata do
  not separate it, it is the share judged "yes" over the whole population;
- agreement: every item two or more evaluators answered, estimate and improve alike, on the
  verdict (yes / no / partial).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable
from urllib.parse import urlencode

from labeling.agreement import FleissKappa, Kappa, fleiss_by_rater_count, pairwise_cohen, pooled_kappa
from labeling.estimates import (BreakdownRow, Proportion, StratifiedEstimate, Stratum, error_breakdown,
                                proportion, stratified_estimate)
from labeling.models import ErrorCategory, EvaluationItem
from labeling.pace import Pace, pace
from labeling.report_data import ItemRecord

ESTIMATE = EvaluationItem.Purpose.ESTIMATE
CATEGORIES = [c.value for c in ErrorCategory]


@dataclass(frozen=True)
class ItemFilter:
    """Which items stand behind a number; its query string is the item list's URL."""

    stratum: str = ""
    method: str = ""
    outcome: str = ""  # correct / partial / wrong
    category: str = ""
    evaluator: str = ""  # judged by this evaluator
    pair: str = ""  # "a,b": answered by both evaluators
    estimate: bool = False  # estimate items with a final verdict only
    positive: bool = False  # in the strata of the positive output only
    disagreed: bool = False

    @classmethod
    def from_query(cls, query) -> "ItemFilter":
        flags = {name: query.get(name) == "1" for name in ("estimate", "positive", "disagreed")}
        texts = {name: query.get(name, "")[:300] for name in
                 ("stratum", "method", "outcome", "category", "evaluator", "pair")}
        return cls(**texts, **flags)

    def query(self) -> str:
        values = {k: ("1" if v is True else v) for k, v in self.__dict__.items() if v}
        return urlencode(values)

    def matches(self, item: ItemRecord) -> bool:
        if self.estimate and (item.purpose != ESTIMATE or item.outcome is None):
            return False
        pair = [p for p in self.pair.split(",") if p]
        return ((not self.stratum or item.stratum == self.stratum)
                and (not self.method or item.method == self.method)
                and (not self.positive or item.positive)
                and (not self.outcome or item.outcome == self.outcome)
                and (not self.category or (item.final is not None and item.final.category == self.category))
                and (not self.evaluator or item.judged_by(self.evaluator))
                and all(any(j.evaluator == e for j in item.answers) for e in pair)
                and (not self.disagreed or item.disagreed))


@dataclass(frozen=True)
class Row:
    """One precision figure with the filter of its judged items and of its correct ones."""

    name: str
    figure: Proportion
    items: ItemFilter
    population: int | None = None
    population_estimated: bool = False  # a method's share of strata that hold other methods too

    @property
    def correct_items(self) -> ItemFilter:
        return ItemFilter(**{**self.items.__dict__, "outcome": "correct"})


@dataclass(frozen=True)
class AgreementRow:
    first: str
    second: str
    kappa: Kappa
    items: ItemFilter


@dataclass
class Report:
    items: int = 0
    estimate_items: int = 0
    improve_items: int = 0
    decided: int = 0
    undecided: int = 0  # judges disagree and no admin has decided yet
    strata: list[Row] = field(default_factory=list)
    methods: list[Row] = field(default_factory=list)
    estimate: StratifiedEstimate | None = None
    estimate_scope: str = ""
    estimate_items_filter: ItemFilter = ItemFilter(estimate=True)
    breakdown: list[BreakdownRow] = field(default_factory=list)
    cohen: list[AgreementRow] = field(default_factory=list)
    pooled: Kappa | None = None
    fleiss: list[FleissKappa] = field(default_factory=list)
    pace: dict[str, Pace] = field(default_factory=dict)


def build_report(records: list[ItemRecord]) -> Report:
    estimate_items = [i for i in records if i.purpose == ESTIMATE]
    decided = [i for i in estimate_items if i.outcome is not None]
    report = Report(items=len(records), estimate_items=len(estimate_items),
                    improve_items=len(records) - len(estimate_items), decided=len(decided),
                    undecided=sum(1 for i in records if i.final is None and i.disagreed))
    report.strata = _stratum_rows(estimate_items, decided)
    positive = [i for i in decided if i.positive]
    scope_items, report.estimate_scope, only_positive = (
        (positive, "precision of the output (the positive strata)", True) if any(i.positive for i in estimate_items)
        else (decided, "share judged yes over the whole population", False))
    report.methods = _method_rows(scope_items, only_positive, estimate_items)
    report.estimate = _estimate(estimate_items, scope_items, only_positive)
    report.estimate_items_filter = ItemFilter(estimate=True, positive=only_positive)
    report.breakdown = error_breakdown(((i.method, i.outcome, i.final.category) for i in scope_items), CATEGORIES)
    _agreement(records, report)
    report.pace = _pace(records)
    return report


def _count(items: Iterable[ItemRecord]) -> Proportion:
    items = list(items)
    return proportion(sum(1 for i in items if i.outcome == "correct"), len(items))


def _stratum_rows(estimate_items: list[ItemRecord], decided: list[ItemRecord]) -> list[Row]:
    sizes = {i.stratum: i.stratum_size for i in estimate_items}
    by_stratum: dict[str, list[ItemRecord]] = defaultdict(list)
    for item in decided:
        by_stratum[item.stratum].append(item)
    return [Row(name, _count(by_stratum[name]), ItemFilter(stratum=name, estimate=True), sizes[name])
            for name in sorted(sizes)]


def _method_rows(scope_items: list[ItemRecord], only_positive: bool, estimate_items: list[ItemRecord]) -> list[Row]:
    by_method: dict[str, list[ItemRecord]] = defaultdict(list)
    for item in scope_items:
        by_method[item.method].append(item)
    populations, mixed = _method_populations([i for i in estimate_items if i.positive or not only_positive])
    return [Row(m, _count(by_method[m]), ItemFilter(method=m, estimate=True, positive=only_positive),
                round(populations.get(m, 0)), mixed) for m in sorted(by_method)]


def _method_populations(sampled: list[ItemRecord]) -> tuple[dict[str, float], bool]:
    """Each method's part of the population the strata stand for, Σ_h N_h · n_hm / n_h over the
    strata's sampled items; exact when each stratum holds one method (stratified by method), else an
    estimate (the second value says so)."""
    strata: dict[str, list[ItemRecord]] = defaultdict(list)
    for item in sampled:
        strata[item.stratum].append(item)
    populations: dict[str, float] = defaultdict(float)
    mixed = False
    for items in strata.values():
        methods = [item.method for item in items]
        mixed = mixed or len(set(methods)) > 1
        for method in set(methods):
            populations[method] += items[0].stratum_size * methods.count(method) / len(methods)
    return populations, mixed


def _estimate(estimate_items: list[ItemRecord], scope_items: list[ItemRecord], only_positive: bool):
    sizes = {i.stratum: i.stratum_size for i in estimate_items if i.positive or not only_positive}
    judged: dict[str, list[ItemRecord]] = defaultdict(list)
    for item in scope_items:
        judged[item.stratum].append(item)
    return stratified_estimate([
        Stratum(name, size, len(judged[name]), sum(1 for i in judged[name] if i.outcome == "correct"))
        for name, size in sorted(sizes.items())])


def _agreement(records: list[ItemRecord], report: Report) -> None:
    ratings = {i.id: {j.evaluator: j.verdict for j in i.answers} for i in records if len(i.answers) >= 2}
    per_pair = pairwise_cohen(ratings)
    report.cohen = [AgreementRow(a, b, k, ItemFilter(pair=f"{a},{b}")) for (a, b), k in per_pair.items()]
    report.pooled = pooled_kappa(per_pair)
    report.fleiss = fleiss_by_rater_count(ratings)


def _pace(records: list[ItemRecord]) -> dict[str, Pace]:
    by_evaluator: dict[str, list] = defaultdict(list)
    for item in records:
        for judgment in item.judgments:
            by_evaluator[judgment.evaluator].append(judgment)
    result = {}
    for evaluator in sorted(by_evaluator):
        judgments = sorted(by_evaluator[evaluator], key=lambda j: j.at)
        result[evaluator] = pace([j.at for j in judgments], judgments[0].seconds)
    return result


@dataclass(frozen=True)
class BreakdownLine:
    """A breakdown row ready to show: every count with the filter of its items."""

    group: str
    judged: int
    correct: int
    precision: float | None
    partial: int
    unspecified: int
    cells: list[tuple[int, float | None, ItemFilter]]  # per category: count, share of the wrong, items
    filter: ItemFilter
    is_total: bool

    @property
    def correct_filter(self) -> ItemFilter:
        return ItemFilter(**{**self.filter.__dict__, "outcome": "correct"})

    @property
    def partial_filter(self) -> ItemFilter:
        return ItemFilter(**{**self.filter.__dict__, "outcome": "partial"})


def breakdown_lines(report: Report) -> list[BreakdownLine]:
    lines = []
    for row in report.breakdown:
        is_total = row is report.breakdown[-1]
        base = ItemFilter(method="" if is_total else str(row.group), estimate=True,
                          positive=report.estimate_items_filter.positive)
        cells = [(row.categories[c], row.share(c), ItemFilter(**{**base.__dict__, "outcome": "wrong", "category": c}))
                 for c in CATEGORIES]
        lines.append(BreakdownLine(str(row.group), row.judged, row.correct, row.precision.p, row.partial,
                                   row.categories[""], cells, base, is_total))
    return lines
