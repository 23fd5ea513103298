"""Drawing an evaluation's sample and sharing it among evaluators. Pure: no Django, seeded randomness.

- ``stratified_sample``: uniform random sampling without replacement inside each stratum, n_h =
  min(size, N_h). Each stratum draws from its own generator seeded by (seed, stratum) over the
  units sorted by key, so the same seed and the same population give the same sample whatever
  order the population came in, and adding a stratum does not change the others' samples.
- ``uncertainty_sample``: the *improve* purpose: per stratum, the units whose classifier
  probability is nearest 0.5 (least-confidence uncertainty sampling); seeded tie-break.
- ``margin_of_error``: the 95 % margin of a proportion estimated from n of N, worst case p = 0.5,
  with the finite population correction: z·√(p(1−p)/n)·√((N−n)/(N−1)).
- ``assign``: a seeded share of the items goes to two evaluators (for agreement), the rest to one,
  keeping every evaluator's load as even as possible.
"""
from __future__ import annotations

import math
import random
from collections import defaultdict
from dataclasses import dataclass
from typing import Hashable, Iterable, Sequence

Z_95 = 1.959963984540054  # the standard normal's 97.5 % quantile


@dataclass(frozen=True)
class Unit:
    """One member of the population: its key (a row id), its stratum, and for uncertainty
    sampling the current classifier's probability that it is positive."""

    key: int
    stratum: str
    probability: float | None = None


@dataclass(frozen=True)
class Drawn:
    unit: Unit
    stratum_size: int
    position: int  # place in the whole sample, shuffled so strata are interleaved


def strata_sizes(population: Iterable[Unit]) -> dict[str, int]:
    sizes: dict[str, int] = defaultdict(int)
    for unit in population:
        sizes[unit.stratum] += 1
    return dict(sorted(sizes.items()))


def _by_stratum(population: Iterable[Unit]) -> dict[str, list[Unit]]:
    groups: dict[str, list[Unit]] = defaultdict(list)
    for unit in population:
        groups[unit.stratum].append(unit)
    for units in groups.values():
        units.sort(key=lambda u: u.key)
    return dict(sorted(groups.items()))


def _check_size(size: int) -> None:
    if not isinstance(size, int) or size < 1:
        raise ValueError(f"sample size per stratum must be a positive whole number, got {size!r}")


def _generator(seed: int, *parts: Hashable) -> random.Random:
    # A str seed is hashed with SHA-512 by random.Random (not Python's salted hash): reproducible.
    return random.Random(":".join(str(p) for p in (seed, *parts)))


def _interleave(chosen: list[tuple[Unit, int]], seed: int) -> list[Drawn]:
    order = sorted(chosen, key=lambda c: (c[0].stratum, c[0].key))
    _generator(seed, "order").shuffle(order)
    return [Drawn(unit, size, position) for position, (unit, size) in enumerate(order)]


def stratified_sample(population: Iterable[Unit], size: int, seed: int) -> list[Drawn]:
    """Uniform random sample of min(size, N_h) units from every stratum h."""
    _check_size(size)
    chosen: list[tuple[Unit, int]] = []
    for stratum, units in _by_stratum(population).items():
        picked = _generator(seed, "stratum", stratum).sample(units, min(size, len(units)))
        chosen.extend((unit, len(units)) for unit in picked)
    return _interleave(chosen, seed)


def uncertainty_sample(population: Iterable[Unit], size: int, seed: int) -> list[Drawn]:
    """Per stratum, the min(size, N_h) units with probability nearest 0.5; units without a
    probability come last (the classifier has said nothing about them)."""
    _check_size(size)
    chosen: list[tuple[Unit, int]] = []
    for stratum, units in _by_stratum(population).items():
        rng = _generator(seed, "uncertainty", stratum)
        tie_break = {unit.key: rng.random() for unit in units}
        ranked = sorted(units, key=lambda u: (u.probability is None,
                                              abs(u.probability - 0.5) if u.probability is not None else 0.0,
                                              tie_break[u.key]))
        chosen.extend((unit, len(units)) for unit in ranked[:size])
    return _interleave(chosen, seed)


def margin_of_error(n: int, population: int, z: float = Z_95, p: float = 0.5) -> float:
    """Half-width of the confidence interval of a proportion from a simple random sample of n
    out of N, with the finite population correction √((N−n)/(N−1)). 0 when the whole population
    is judged; 1 (nothing known) when n is 0."""
    if n < 0 or population < 0:
        raise ValueError(f"sizes must not be negative (n={n}, N={population})")
    if n > population:
        raise ValueError(f"a sample of {n} cannot come from a population of {population}")
    if n == 0:
        return 1.0
    if n == population:
        return 0.0
    fpc = math.sqrt((population - n) / (population - 1))
    return z * math.sqrt(p * (1 - p) / n) * fpc


def strata_margins(sizes: dict[str, int], size: int) -> dict[str, tuple[int, int, float]]:
    """For each stratum: (n, N, margin) with n = min(size, N)."""
    return {stratum: (min(size, n_pop), n_pop, margin_of_error(min(size, n_pop), n_pop))
            for stratum, n_pop in sizes.items()}


def assign(positions: Sequence[int], evaluators: Sequence[int], overlap: float, seed: int) -> list[tuple[int, int]]:
    """(position, evaluator) pairs. round(overlap·items) items, chosen by the seed, go to two
    evaluators; each item goes to whoever has the fewest so far (ties by the evaluators' order),
    so loads differ by at most one item between evaluators. One evaluator: no overlap possible."""
    if not 0.0 <= overlap <= 1.0:
        raise ValueError(f"overlap must be a share between 0 and 1, got {overlap!r}")
    if not evaluators:
        raise ValueError("at least one evaluator is needed")
    if len(set(evaluators)) != len(evaluators):
        raise ValueError("an evaluator is named twice")
    items = sorted(positions)
    doubled = set()
    if len(evaluators) >= 2:
        doubled = set(_generator(seed, "overlap").sample(items, round(overlap * len(items))))
    load = {evaluator: 0 for evaluator in evaluators}
    pairs = []
    for position in items:
        takers = sorted(evaluators, key=lambda e: (load[e], evaluators.index(e)))[:2 if position in doubled else 1]
        for evaluator in takers:
            load[evaluator] += 1
            pairs.append((position, evaluator))
    return pairs
