"""STRAND-style structural similarity of two HTML documents (Resnik & Smith).

Each document is linearized to tokens [START:tag], [END:tag] and [Chunk:len] (a
run of visible text and its length; script/style contents and comments are
dropped) by crawlweb.crawler.structure, which also gives the compact signature a
crawl keeps on its Page.  The two token sequences are aligned by a longest common
subsequence (markup tokens match on their tag, chunks match any chunk).  Reported:
- dp: difference percentage, inserted + deleted tokens / all alignment positions;
- n: number of aligned text-chunk pairs;
- r: Pearson correlation of the lengths of the aligned chunks (None if n < 2 or
  a side has constant lengths).
Translations of one template have low dp and high r.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from crawlweb.crawler.structure import CHUNK, MAX_TOKENS, Token, linearize, signature_tokens, visible_text

__all__ = ["MAX_TOKENS", "StrandScores", "align", "linearize", "visible_text", "pearson", "strand_scores",
           "strand_scores_of_tokens", "signature_tokens"]


@dataclass(frozen=True)
class StrandScores:
    dp: float
    n: int
    r: float | None
    tokens_a: int
    tokens_b: int


def pearson(xs: list[float], ys: list[float]) -> float | None:
    if len(xs) < 2:
        return None
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / math.sqrt(sxx * syy)


def strand_scores(html_a: str, html_b: str) -> StrandScores:
    return strand_scores_of_tokens(linearize(html_a, MAX_TOKENS), linearize(html_b, MAX_TOKENS))


def align(a: list, b: list) -> list[tuple[int, int]]:
    """Index pairs (i, j) of a longest common subsequence of a and b, in order.

    Row by row with numpy: L[i][j] = max(L[i−1][j], L[i−1][j−1] + [a_i = b_j], L[i][j−1]) is
    the running maximum along j of the first two terms, so each row is a few array operations
    (a 400-token page pair takes milliseconds, where difflib took tens of them)."""
    n, m = len(a), len(b)
    if not n or not m:
        return []
    codes: dict = {}
    first = np.array([codes.setdefault(x, len(codes)) for x in a], dtype=np.int32)
    second = np.array([codes.setdefault(x, len(codes)) for x in b], dtype=np.int32)
    table = np.zeros((n + 1, m + 1), dtype=np.int16 if min(n, m) < 32000 else np.int32)
    for i in range(1, n + 1):
        step = np.maximum(table[i - 1, 1:], table[i - 1, :-1] + (second == first[i - 1]))
        np.maximum.accumulate(step, out=table[i, 1:])
    pairs = []
    i, j = n, m
    while i and j:
        if first[i - 1] == second[j - 1] and table[i, j] == table[i - 1, j - 1] + 1:
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif table[i - 1, j] >= table[i, j - 1]:
            i -= 1
        else:
            j -= 1
    pairs.reverse()
    return pairs


def strand_scores_of_tokens(a: list[Token], b: list[Token], *, max_tokens: int = MAX_TOKENS) -> StrandScores:
    """STRAND over two token lists (from linearize, or from stored signatures: signature_tokens).
    Markup tokens align on their tag, a text chunk with any chunk; each side's first max_tokens
    tokens are compared (the alignment's table is max_tokens² cells)."""
    a, b = a[:max_tokens], b[:max_tokens]
    pairs = align([k for k, _ in a], [k for k, _ in b])
    lengths = [(a[i][1], b[j][1]) for i, j in pairs if a[i][0] == CHUNK]
    aligned = len(pairs)
    changed = len(a) + len(b) - 2 * aligned  # tokens only one side has
    positions = aligned + changed
    dp = changed / positions if positions else 0.0
    return StrandScores(dp, len(lengths), pearson([x for x, _ in lengths], [y for _, y in lengths]), len(a), len(b))
