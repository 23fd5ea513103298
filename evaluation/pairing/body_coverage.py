"""Content check "body of its own": a dictionary finds too little of one body translated in the other.

Pupsniffer's "partial" pairs pass every other check: the two pages are in their languages, about
as long, linked to each other, with the same translated menu and footer, but each body is a text
of its own (a gym's English pages keep paragraphs from another site under the translated frame).
A bilingual dictionary (evaluation.bodies.lexicon) reads the two *bodies*, the lines that are not
the site's template: when each holds at least MIN_KNOWN words it knows and, in one direction at
least, under ``min_coverage`` of them have a translation on the other side, the bodies do not
say the same thing.

Measured on the real development web's listed pairs (bodies with ≥ 30 known words): no translated
pair of 205 is under 0.45, and 6 of 23 partial or boilerplate-only pairs are; at 0.5, 2 translated
pairs would go.

Word coverage reads each body as a bag of words, so a body of its own *on the same topic* (the
gym's own yoga text beside the Serbian one) still covers well. So the lines are also aligned in
order (evaluation.bodies.alignment): when under ``min_aligned`` of the two bodies' known words align
line by line, the bodies do not say the same thing either. Measured on the same pairs (each body
≥ 30 known words): 2 of 199 translated pairs are under 0.3 (two home pages whose English side was
rewritten: other projects, other paragraphs), and 15 of 33 partial or boilerplate-only pairs are.

An adapted translation fails both readings (an organisation's pages reworded per language, a long
literary page translated loosely, sections moved): its sentences are split, merged and reworded, so
the dictionary finds a third of each, and its lines no longer align one to one in order. Before a
pair is removed as bodies of their own, the two bodies are aligned sentence by sentence
(evaluation.bodies.sentence_alignment: length-based, with the dictionary's words, cognates, numbers,
names and the lines' shapes as anchors, sections allowed to move): when at least ``min_alignment``
of their characters align, the pair is a loose translation and is kept. Chosen on dev-train only:
of the pairs this check removed there, the two translated ones (a restaurant's home page adapted per
language, another restaurant's home page with its menu) align 0.71 and 0.86, the partial pairs at most
0.63 and the same sites' other pages (pages of their own) at most 0.64; two thirds is the threshold
(docs/pairing.md).
"""
from __future__ import annotations

from evaluation.bodies.alignment import aligned_share
from evaluation.bodies.lexicon import Lexicon, stems
from evaluation.bodies.page_body import SiteLines, bodies
from evaluation.bodies.sentence_alignment import align

from .recent import RecentResults

MIN_KNOWN = 30  # fewer known words each way: too little body to judge (forms, galleries)
MIN_COVERAGE = 0.45
MIN_ALIGNED = 0.3
MIN_ALIGNMENT = 0.67  # sentence alignment (share of characters) that keeps a pair the two readings above remove


def body_coverage_reason(source_text: str, target_text: str, site: SiteLines | None, lexicon: Lexicon,
                         min_coverage: float = MIN_COVERAGE, min_known: int | None = None,
                         min_aligned: float = MIN_ALIGNED, min_alignment: float = MIN_ALIGNMENT
                         ) -> tuple[str | None, dict]:
    """(why the pair is no translation, or None; the figures read). ``source_text`` is in the
    lexicon's first language; ``min_coverage`` or ``min_aligned`` 0 turns that reading off,
    ``min_alignment`` 0 the sentence alignment that keeps a loose translation they would remove."""
    min_known = MIN_KNOWN if min_known is None else min_known
    a, b = bodies(source_text, target_text, site)
    # what the two bodies say depends on them, the lexicon and the thresholds only: remembered for the
    # site's next scoring (its pages mostly stay as they were)
    tables, direction = lexicon.tables
    key = (direction, hash(tuple(a)), hash(tuple(b)), min_coverage, min_known, min_aligned, min_alignment)
    return _readings.get(key, lambda: _read(a, b, lexicon, min_coverage, min_known, min_aligned, min_alignment),
                         tables)


_readings = RecentResults(20_000)  # ~11 MB; a crawl of 78,000 pages had 14,000 candidate pairs


def _read(a: list[str], b: list[str], lexicon: Lexicon, min_coverage: float, min_known: int, min_aligned: float,
          min_alignment: float) -> tuple[str | None, dict]:
    figures: dict = {}
    reason = _reason(a, b, lexicon, figures, min_coverage, min_known, min_aligned)
    if reason is None or min_alignment <= 0:
        return reason, figures
    found = align(a, b, lexicon)
    figures.update(alignment_score=round(found.score, 4), alignment_paragraphs=round(found.paragraphs, 4))
    if found.score >= min_alignment:
        figures["adapted_translation"] = True
        return None, figures
    return f"{reason}; sentences align {found.score:.0%} (< {min_alignment:.0%})", figures


def _reason(a: list[str], b: list[str], lexicon: Lexicon, figures: dict, min_coverage: float, min_known: int,
            min_aligned: float) -> str | None:
    forward, backward, known = lexicon.coverage(stems(a), stems(b))
    if min_coverage > 0 and forward is not None and backward is not None and known >= min_known:
        coverage = min(forward, backward)
        figures.update(body_coverage=round(coverage, 4), body_known_words=known)
        if coverage < min_coverage:
            return (f"bodies of their own: the dictionary finds {coverage:.0%} of a body translated "
                    f"(< {min_coverage:.0%}, {known} known words)")
    if min_aligned > 0:
        share, known_in_lines = aligned_share(lexicon, a, b)
        if share is not None and known_in_lines >= min_known:
            figures.update(aligned_share=round(share, 4), aligned_known_words=known_in_lines)
            if share < min_aligned:
                return (f"bodies of their own: {share:.0%} of their known words align line by line "
                        f"(< {min_aligned:.0%}, {known_in_lines} known words in the smaller body)")
    return None
