"""Paragraphs of two pages side by side, aligned where their lengths suggest it. Pure.

A small dynamic programme in the spirit of Gale & Church's length-based alignment: translations
keep roughly the length of their source, so a 1–1 step costs the log ratio of the two lengths,
|log((len_left + 10) / (len_right + 10))|, 2–1 and 1–2 steps (a paragraph split in translation)
cost that plus a penalty, and a paragraph with no counterpart costs a fixed penalty. Display
only: a wrong alignment shows a gap, never hides text (every paragraph appears once, in order)."""
from __future__ import annotations

import math

SKIP_COST = 2.0
MERGE_PENALTY = 0.7
MAX_PARAGRAPHS = 400  # the DP is quadratic; longer pages are shown row by row unaligned


def paragraphs(text: str) -> list[str]:
    return [line.strip() for line in (text or "").split("\n") if line.strip()]


def align(left: list[str], right: list[str]) -> list[tuple[str, str]]:
    """Rows (left text, right text); either side may be '' where nothing matches.

    Each cell takes the cheapest of its five predecessors (2–1, 1–2, 1–1, skip left, skip right,
    the first one wins a tie). Written row by row with the lengths and the row above held in
    local lists: a page of a hundred paragraphs a side is aligned in a few milliseconds, while
    the evaluator waits for the next card."""
    n, m = len(left), len(right)
    if n > MAX_PARAGRAPHS or m > MAX_PARAGRAPHS:
        return [(left[i] if i < n else "", right[i] if i < m else "") for i in range(max(n, m))]
    # Lengths + 10 for the log ratio; merged: the two paragraphs' lengths + 10.
    left10 = [len(p) + 10 for p in left]
    right10 = [len(p) + 10 for p in right]
    merged_left10 = [0, 0] + [left10[a - 2] + left10[a - 1] - 10 for a in range(2, n + 1)]
    merged_right10 = [0, 0] + [right10[b - 2] + right10[b - 1] - 10 for b in range(2, m + 1)]
    log, inf = math.log, math.inf
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    step = [[(0, 0)] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0.0
    for a in range(n + 1):
        row, row_steps = cost[a], step[a]
        up = cost[a - 1] if a >= 1 else None
        up2 = cost[a - 2] if a >= 2 else None
        l10 = left10[a - 1] if a >= 1 else 0
        merged_l10 = merged_left10[a]
        for b in range(1 if a == 0 else 0, m + 1):
            best, move = inf, (0, 0)
            if up2 is not None and b >= 1:
                c = up2[b - 1] + (abs(log(merged_l10 / right10[b - 1])) + MERGE_PENALTY)
                if c < best:
                    best, move = c, (2, 1)
            if up is not None:
                if b >= 2:
                    c = up[b - 2] + (abs(log(l10 / merged_right10[b])) + MERGE_PENALTY)
                    if c < best:
                        best, move = c, (1, 2)
                if b >= 1:
                    c = up[b - 1] + abs(log(l10 / right10[b - 1]))
                    if c < best:
                        best, move = c, (1, 1)
                c = up[b] + SKIP_COST
                if c < best:
                    best, move = c, (1, 0)
            if b >= 1:
                c = row[b - 1] + SKIP_COST
                if c < best:
                    best, move = c, (0, 1)
            row[b], row_steps[b] = best, move
    rows: list[tuple[str, str]] = []
    i, j = n, m
    while i or j:
        di, dj = step[i][j]
        rows.append(("\n".join(left[i - di:i]), "\n".join(right[j - dj:j])))
        i, j = i - di, j - dj
    return rows[::-1]
