"""Folding a tally's deltas into its folded rows: the arithmetic, with no database.

A tally keeps, per key, at most one folded row (the sum of the changes folded so far) and any number
of deltas written since. Folding adds the deltas of a key to its folded row: a new row where there
was none, an update where the sum moved, a deletion where it came to zero (an empty key costs no
row). For a member figure (hosts with work, sites with pages) it also says by how much the number
of members with a positive sum moved, which is what crawlweb.models.MemberCount keeps.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field


def summed(deltas: Iterable[tuple[Hashable, int]]) -> dict[Hashable, int]:
    """{key: sum of its deltas}, keys whose deltas cancel out left out."""
    sums: dict[Hashable, int] = {}
    for key, n in deltas:
        sums[key] = sums.get(key, 0) + n
    return {key: n for key, n in sums.items() if n}


def members_moved(before: int, after: int) -> int:
    """+1 when a member joins the figure (its sum turns positive), -1 when it leaves, else 0."""
    return int(after > 0) - int(before > 0)


@dataclass
class FoldPlan:
    new: dict[Hashable, int] = field(default_factory=dict)        # key -> n of a folded row to insert
    changed: dict[int, int] = field(default_factory=dict)         # folded row id -> its new n
    emptied: list[int] = field(default_factory=list)              # folded row ids whose sum came to 0
    members: int = 0                                              # change in members with a positive sum


def fold_plan(sums: dict[Hashable, int], folded: dict[Hashable, tuple[int, int]]) -> FoldPlan:
    """What to write so the folded rows (``folded``: {key: (row id, n)}) hold ``sums`` added in."""
    plan = FoldPlan()
    for key, delta in sums.items():
        row_id, before = folded.get(key, (None, 0))
        after = before + delta
        plan.members += members_moved(before, after)
        if row_id is None:
            if after:
                plan.new[key] = after
        elif after:
            plan.changed[row_id] = after
        else:
            plan.emptied.append(row_id)
    return plan
