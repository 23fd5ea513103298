"""The one-to-one choice by a classifier's probabilities: each page keeps at most one counterpart.

Scoring's own choice (evaluation.pairing.methods.combine_candidates) ranks candidates by method and
pattern score before anything has read them; a promoted pair classifier has read every candidate,
so it chooses instead: candidates in order of P(parallel), best first, each kept when P ≥ 0.5 and
neither of its pages' slots is taken yet. A slot is a page and the script of its counterpart, as in
combine_candidates: an English page may keep one Latin and one Cyrillic Serbian counterpart."""
from __future__ import annotations

from collections.abc import Hashable, Sequence

KEEP_AT = 0.5


def choose_one_to_one(slots: Sequence[tuple[Hashable, Hashable]], probabilities: Sequence[float],
                      keep_at: float = KEEP_AT) -> list[bool]:
    """Which candidates are kept; ``slots[i]`` are candidate i's two (page, counterpart script) slots.
    Ties go to the earlier candidate, so the choice is reproducible."""
    if len(slots) != len(probabilities):
        raise ValueError(f"{len(slots)} candidates but {len(probabilities)} probabilities")
    kept = [False] * len(slots)
    taken: set = set()
    for i in sorted(range(len(slots)), key=lambda i: (-probabilities[i], i)):
        if probabilities[i] < keep_at or taken & set(slots[i]):
            continue
        taken.update(slots[i])
        kept[i] = True
    return kept
