"""Copies of one page within a language are never paired with the other language's distinct pages.

Pure module (no Django). A site whose Serbian /sr/about, /sr/careers and /sr/gallery are copies of
/sr/index (a template filled in for one language only, or left behind by a theme) has every URL
pattern of a translated site: ⟨sr, en⟩ pairs /sr/about with /en/about, /sr/careers with /en/careers.
Each such pair passes the filter's checks: its languages are right, its lengths alike, and the
body check has nothing to read, since a copied page's lines are on several pages of the site and so
are taken for its template. But the copies say one thing and the English pages several: at most one
English page can be the translation of what the copies say.

So a site's pages are grouped by their text: two pages of one language are *copies* when their
lines (case and spacing aside) are the same, or differ only in lines holding under COPY_SLACK of
their characters (COPY_SLACK is 0: the same lines; the page title is not in its text). On dev-train
a slack of 0.02 also took a food-delivery site's district pages, whose restaurant lists differ in a
line or two, for copies. When the pairs the filter keeps link the members of one copy group with two
or more *distinct* pages of the other language (pages that are not copies of each
other themselves), only the best of those pairs is kept: the one whose two texts align best
(evaluation.bodies.sentence_alignment, over the lines the two pages do not share verbatim), ties going
to the order in which the one-to-one choice would take them. The others are removed with a reason
naming the copy. Copies paired with copies (both languages' placeholder pages) are left alone: the
rule is about distinct pages only.
"""
from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from evaluation.bodies.page_body import page_lines

from .records import CandidatePair, base_language

COPY_SLACK = 0.0  # share of a page's characters in lines its copy may not have (0: the same lines)
LONGEST_LINES = 3  # pages are compared within buckets of the same longest lines (copies share them)


@dataclass(frozen=True)
class CopyPage:
    url: str
    language: str
    text: str


def _lines(text: str) -> dict[str, int]:
    """A page's distinct lines (case folded) and their lengths."""
    return {line.casefold(): len(line) for line in page_lines(text)}


def _same(a: dict[str, int], b: dict[str, int], slack: float) -> bool:
    total_a, total_b = sum(a.values()), sum(b.values())
    if not total_a or not total_b:
        return False
    only_a = sum(n for line, n in a.items() if line not in b)
    only_b = sum(n for line, n in b.items() if line not in a)
    return only_a <= slack * total_a and only_b <= slack * total_b


def copy_groups(pages: Iterable[CopyPage], slack: float = COPY_SLACK) -> dict[str, str]:
    """{URL: its group's first URL} for every page that has a copy of its own language among ``pages``
    (pages with no text have none). Pages are compared within buckets of their longest lines."""
    buckets: dict[tuple, list[tuple[CopyPage, dict[str, int]]]] = defaultdict(list)
    for page in pages:
        lines = _lines(page.text)
        if not lines:
            continue
        longest = sorted(lines, key=lambda line: (-lines[line], line))[:LONGEST_LINES]
        key = (base_language(page.language), hashlib.sha1("\n".join(longest).encode()).hexdigest())
        buckets[key].append((page, lines))
    groups: dict[str, str] = {}
    for members in buckets.values():
        leaders: list[tuple[CopyPage, dict[str, int]]] = []
        for page, lines in members:
            leader = next((first for first, first_lines in leaders if _same(lines, first_lines, slack)), None)
            if leader is None:
                leaders.append((page, lines))
            else:
                groups.setdefault(leader.url, leader.url)
                groups[page.url] = leader.url
    return groups


def copies_to_remove(candidates: Iterable[CandidatePair], kept: Callable[[CandidatePair], bool],
                     groups: Mapping[str, str], rank: Callable[[CandidatePair], float]) -> dict[tuple[str, str], str]:
    """{key: reason} of the kept candidates the copies rule removes. ``groups``: copy_groups of the
    site's pages; ``rank``: how well a candidate's two texts align (higher is better); ``candidates``
    in the one-to-one choice's order (ties go to the earlier)."""
    ordered = [c for c in candidates if kept(c)]
    touching: dict[str, list[tuple[int, CandidatePair, str]]] = defaultdict(list)  # group → (order, pair, its copy)
    for order, cand in enumerate(ordered):
        for side, other in ((cand.source_url, cand.target_url), (cand.target_url, cand.source_url)):
            if side in groups:
                touching[groups[side]].append((order, cand, side))
    size: dict[str, int] = defaultdict(int)
    for leader in groups.values():
        size[leader] += 1
    out: dict[tuple[str, str], str] = {}
    for leader, pairs in touching.items():
        partners = {groups.get(_other(cand, copy), _other(cand, copy)) for _, cand, copy in pairs}
        if len(partners) < 2:
            continue
        best = max(pairs, key=lambda item: (rank(item[1]), -item[0]))[1]
        for _, cand, copy in pairs:
            if cand is best or cand.key in out:
                continue
            original = leader if copy != leader else next(
                url for url, group in sorted(groups.items()) if group == leader and url != copy)
            out[cand.key] = (f"copies: {copy} is a copy of {original} ({size[leader]} copies in its language), "
                             f"paired with {len(partners)} distinct pages; kept: {best.source_url} – {best.target_url}")
    return out


def _other(cand: CandidatePair, url: str) -> str:
    return cand.target_url if cand.source_url == url else cand.source_url

