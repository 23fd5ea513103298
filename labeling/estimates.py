"""Precision figures from judged samples: Wilson score intervals, the stratified estimate of a
population proportion, and the error-category breakdown. Pure: counts go in, figures come out.

Z is the normal quantile for a two-sided 95 % interval throughout.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Hashable, Iterable, Mapping, Sequence

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Proportion:
    successes: int
    n: int
    p: float | None  # None when n = 0
    low: float | None
    high: float | None


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson (1927) score interval of successes / n (wilson_bounds). Unlike p̂ ± z·SE it stays
    inside [0, 1] and is not empty at p̂ = 0 or 1. None when n = 0 (nothing was judged)."""
    _check_counts(successes, n)
    if n == 0:
        return None
    return wilson_bounds(successes / n, n, z)


def wilson_bounds(p: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion p observed over n items, n > 0 and possibly not a
    whole number (an effective sample size): centre (p + z²/2n) / (1 + z²/n), half-width
    z / (1 + z²/n) · √(p(1 − p)/n + z²/4n²). n = ∞ (a census) gives (p, p)."""
    if not n > 0:
        raise ValueError(f"bad sample size {n}: must be positive")
    if math.isinf(n):
        return p, p
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def proportion(successes: int, n: int) -> Proportion:
    interval = wilson_interval(successes, n)
    if interval is None:
        return Proportion(successes, n, None, None, None)
    return Proportion(successes, n, successes / n, *interval)


def proportions(counts: Mapping[Hashable, tuple[int, int]]) -> dict[Hashable, Proportion]:
    """Precision per method or per stratum: {key: (successes, n)} → {key: Proportion}."""
    return {key: proportion(s, n) for key, (s, n) in counts.items()}


@dataclass(frozen=True)
class Stratum:
    name: str
    population: int  # N_h: the stratum's size in the population sampled from
    judged: int  # n_h: its judged sample items
    successes: int  # of those, how many were correct


@dataclass(frozen=True)
class StratifiedEstimate:
    p: float | None
    standard_error: float | None
    low: float | None
    high: float | None
    population: int  # N over the strata the estimate covers
    judged: int
    coverage: float | None  # share of the whole population in strata with at least one judged item
    missing: tuple[str, ...] = field(default=())  # strata with a population but nothing judged yet
    effective_n: float | None = None  # n* of the interval (stratified_effective_n); ∞ for a census

    @property
    def is_census(self) -> bool:
        """Every covered stratum judged whole: the figure is exact, its interval has no width."""
        return self.effective_n is not None and math.isinf(self.effective_n)


def stratified_estimate(strata: Sequence[Stratum], z: float = Z95) -> StratifiedEstimate:
    """Stratified estimate of a population proportion (Cochran, Sampling Techniques, ch. 5):
    p̂ = Σ W_h p_h with W_h = N_h / N, Var(p̂) = Σ W_h² · p_h(1 − p_h)/n_h · (1 − n_h/N_h)
    (the last factor is the finite population correction).

    The 95 % interval is Wilson's score interval at the effective sample size n*
    (stratified_effective_n), not p̂ ± z·√Var: at p̂ = 1 over 40 items that one is 1.000–1.000, as if
    40 judgments proved there is no wrong pair in thousands; Wilson at n* gives 0.91–1.00.

    A stratum with nothing judged yet (an evaluation under way) cannot be estimated; it is left
    out, the weights are taken over the strata that remain, and ``coverage`` and ``missing`` say so.
    """
    for s in strata:
        _check_counts(s.successes, s.judged)
        if s.judged > s.population:
            raise ValueError(f"stratum {s.name!r}: {s.judged} judged items exceed its population {s.population}")
    whole = sum(s.population for s in strata)
    covered = [s for s in strata if s.judged > 0 and s.population > 0]
    missing = tuple(s.name for s in strata if s.judged == 0 and s.population > 0)
    population = sum(s.population for s in covered)
    judged = sum(s.judged for s in covered)
    if population == 0:
        return StratifiedEstimate(None, None, None, None, 0, 0, 0.0 if whole else None, missing)
    p = 0.0
    variance = 0.0
    for s in covered:
        weight = s.population / population
        p_h = s.successes / s.judged
        p += weight * p_h
        variance += weight * weight * p_h * (1 - p_h) / s.judged * (1 - s.judged / s.population)
    effective_n = stratified_effective_n(covered, p, variance)
    low, high = wilson_bounds(p, effective_n, z)
    return StratifiedEstimate(p, math.sqrt(variance), low, high, population, judged, population / whole, missing,
                              effective_n)


def stratified_effective_n(covered: Sequence[Stratum], p: float, variance: float) -> float:
    """The effective sample size n* of a stratified estimate: the size of a simple random sample
    that would give the same precision (Kish, Survey Sampling, 1965: n* = n / deff).

    n* = min(n_data, n_alloc), where
    - n_data = p̂(1 − p̂) / Var(p̂): Kish's design effect measured on the answers (undefined when
      p̂ is 0 or 1, or Var is 0: every judged stratum all right or all wrong);
    - n_alloc = 1 / Σ W_h² (1 − n_h/N_h) / n_h: the design effect of the allocation alone, the limit
      of n_data when every stratum has the same proportion (Kish's effective size for unequal
      weights, with the finite population correction); defined at p̂ = 0 and 1, and ∞ only when
      every stratum is judged whole (a census: the figure is exact).
    Taking the smaller never claims more precision than either the answers or the allocation show,
    so a small stratum judged all right cannot make the interval narrower than the rest allows.
    """
    population = sum(s.population for s in covered)
    allocation = sum((s.population / population) ** 2 * (1 - s.judged / s.population) / s.judged for s in covered)
    n_alloc = math.inf if allocation == 0 else 1 / allocation
    n_data = p * (1 - p) / variance if variance > 0 and 0 < p < 1 else math.inf
    return min(n_alloc, n_data)


@dataclass
class BreakdownRow:
    """One row of the breakdown: judged items of one group (a method), how many were correct,
    and how the wrong ones split over the error categories (Pupsniffer's Tables 2 and 4)."""

    group: Hashable
    judged: int = 0
    correct: int = 0
    partial: int = 0
    categories: Counter = field(default_factory=Counter)  # error category → count; "" = not given

    @property
    def wrong(self) -> int:
        return self.judged - self.correct

    @property
    def precision(self) -> Proportion:
        return proportion(self.correct, self.judged)

    def share(self, category: str) -> float | None:
        """A category's share of this row's wrong items (Table 4 reads this way)."""
        return self.categories[category] / self.wrong if self.wrong else None


def error_breakdown(judged: Iterable[tuple[Hashable, str, str]], categories: Sequence[str]) -> list[BreakdownRow]:
    """Rows per group plus a last "all" row, from (group, outcome, category) per judged item,
    where outcome is "correct", "partial" or "wrong" (a partial pair is not a parallel one, so it
    counts against precision and has its own column). ``categories`` fixes the column order; a
    wrong item without a category counts under "" so the columns always add up to ``wrong``."""
    rows: dict[Hashable, BreakdownRow] = {}
    total = BreakdownRow("all")
    for group, outcome, category in judged:
        if outcome not in ("correct", "partial", "wrong"):
            raise ValueError(f"unknown outcome {outcome!r}: expected correct, partial or wrong")
        if category and category not in categories:
            raise ValueError(f"unknown error category {category!r}")
        row = rows.setdefault(group, BreakdownRow(group))
        for target in (row, total):
            target.judged += 1
            if outcome == "correct":
                target.correct += 1
            else:
                target.partial += outcome == "partial"
                target.categories[category if outcome == "wrong" else "partial"] += 1
    return [rows[g] for g in sorted(rows, key=str)] + [total]


def _check_counts(successes: int, n: int) -> None:
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"bad counts: {successes} successes of {n}")
