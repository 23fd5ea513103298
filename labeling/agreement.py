"""Inter-annotator agreement: Cohen's kappa per evaluator pair and pooled, Fleiss' kappa for three
or more raters. Pure: labels go in (any hashable per item and rater), numbers come out.

Every result carries the observed agreement p_o and the agreement expected by chance p_e, so a
reader can see why a kappa is low (a kappa near 0 with p_o = 0.95 means one category dominates).
Kappa is undefined when p_e = 1 (every rating in one and the same category): 0 / 0. It is then
None, never a made-up 1.0; the observed agreement still says "all agreed".
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Hashable, Iterable, Mapping

# Landis & Koch (1977), "The measurement of observer agreement for categorical data", Biometrics
# 33:159–174, p. 165: their bands for kappa by upper bound (which belongs to its band); below 0 is
# "poor", above 0.80 "almost perfect".
LANDIS_KOCH = ((0.20, "slight"), (0.40, "fair"), (0.60, "moderate"), (0.80, "substantial"))

Label = Hashable
Rater = Hashable
Item = Hashable


@dataclass(frozen=True)
class Kappa:
    kappa: float | None  # None: no items, or p_e = 1 (one category only)
    observed: float | None  # p_o
    expected: float | None  # p_e
    items: int  # items the figure rests on


def _kappa(observed: float, expected: float) -> float | None:
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


def cohen_kappa(pairs: Iterable[tuple[Label, Label]]) -> Kappa:
    """Cohen (1960): κ = (p_o − p_e) / (1 − p_e) for two raters over the same items, where
    p_o is the share of items they labeled alike and p_e = Σ_k (n_Ak / n)(n_Bk / n) from each
    rater's own marginal shares. ``pairs`` holds (rater A's label, rater B's label) per item."""
    pairs = list(pairs)
    n = len(pairs)
    if n == 0:
        return Kappa(None, None, None, 0)
    agreed = sum(1 for a, b in pairs if a == b)
    marginal_a = Counter(a for a, _ in pairs)
    marginal_b = Counter(b for _, b in pairs)
    observed = agreed / n
    expected = sum(marginal_a[k] * marginal_b[k] for k in marginal_a) / (n * n)
    return Kappa(_kappa(observed, expected), observed, expected, n)


def pairwise_cohen(ratings: Mapping[Item, Mapping[Rater, Label]]) -> dict[tuple[Rater, Rater], Kappa]:
    """Cohen's kappa for every pair of raters over the items both rated; pairs with no common
    item are left out. Rater pairs are keyed in sorted order (by ``repr`` when not comparable)."""
    by_pair: dict[tuple[Rater, Rater], list[tuple[Label, Label]]] = {}
    for labels in ratings.values():
        raters = _sorted(labels)
        for a, b in combinations(raters, 2):
            by_pair.setdefault((a, b), []).append((labels[a], labels[b]))
    return {pair: cohen_kappa(pairs) for pair, pairs in sorted(by_pair.items(), key=lambda kv: repr(kv[0]))}


def pooled_kappa(per_pair: Mapping[tuple[Rater, Rater], Kappa]) -> Kappa:
    """One figure over all rater pairs: the pooled kappa of De Vries et al. (2008),
    κ = (p̄_o − p̄_e) / (1 − p̄_e), with p_o and p_e averaged over the pairs weighted by each pair's
    items. Unlike a mean of kappas it stays defined when one pair's own kappa is not."""
    usable = [k for k in per_pair.values() if k.items > 0]
    total = sum(k.items for k in usable)
    if total == 0:
        return Kappa(None, None, None, 0)
    observed = sum(k.observed * k.items for k in usable) / total
    expected = sum(k.expected * k.items for k in usable) / total
    return Kappa(_kappa(observed, expected), observed, expected, total)


@dataclass(frozen=True)
class FleissKappa(Kappa):
    raters_per_item: int = 0


def fleiss_kappa(counts: Iterable[Mapping[Label, int]]) -> FleissKappa:
    """Fleiss (1971) for N items each rated by the same number m ≥ 2 of raters. ``counts`` holds,
    per item, how many raters chose each category (n_ij).

    P_i = (Σ_j n_ij² − m) / (m (m − 1)), p_o = P̄ = mean of P_i;
    p_j = Σ_i n_ij / (N m), p_e = Σ_j p_j²; κ = (P̄ − p_e) / (1 − p_e)."""
    rows = [Counter({k: v for k, v in row.items() if v}) for row in counts]
    if not rows:
        return FleissKappa(None, None, None, 0, 0)
    sizes = {sum(row.values()) for row in rows}
    if len(sizes) != 1:
        raise ValueError(f"Fleiss' kappa needs the same number of raters on every item, got {sorted(sizes)}")
    m = sizes.pop()
    if m < 2:
        raise ValueError(f"Fleiss' kappa needs at least 2 raters per item, got {m}")
    n_items = len(rows)
    observed = sum((sum(v * v for v in row.values()) - m) / (m * (m - 1)) for row in rows) / n_items
    totals: Counter = Counter()
    for row in rows:
        totals.update(row)
    expected = sum((t / (n_items * m)) ** 2 for t in totals.values())
    return FleissKappa(_kappa(observed, expected), observed, expected, n_items, m)


def fleiss_by_rater_count(ratings: Mapping[Item, Mapping[Rater, Label]], minimum: int = 3) -> list[FleissKappa]:
    """Fleiss' kappa over the items rated by ``minimum`` or more raters. Fleiss' formula assumes
    the same m on every item, so items are grouped by their number of raters and each group gets
    its own kappa (largest m first); nothing is mixed or dropped silently."""
    groups: dict[int, list[Counter]] = {}
    for labels in ratings.values():
        if len(labels) >= minimum:
            groups.setdefault(len(labels), []).append(Counter(labels.values()))
    return [fleiss_kappa(groups[m]) for m in sorted(groups, reverse=True)]


def _sorted(raters: Iterable[Rater]) -> list[Rater]:
    raters = list(raters)
    try:
        return sorted(raters)
    except TypeError:
        return sorted(raters, key=repr)


def kappa_reading(kappa: float | None) -> str:
    """Landis & Koch's word for a kappa: poor (< 0), slight (0–0.20), fair (–0.40), moderate (–0.60),
    substantial (–0.80), almost perfect (–1); "undefined" when kappa is (p_e = 1)."""
    if kappa is None:
        return "undefined"
    if kappa < 0:
        return "poor"
    return next((word for bound, word in LANDIS_KOCH if kappa <= bound), "almost perfect")
