"""Content check "body of its own": a dictionary finds too little of one body translated in the other.

Pupsniffer's "partial" pairs pass every other check: the two pages are in their languages, about
as long, linked to each other, with the same translated menu and footer, but each body is a text
of its own (a gym's English pages keep paragraphs from another site under the translated frame).
A bilingual dictionary (training.learn.lexicon) reads the two *bodies*, the lines that are not
the site's template: when each holds at least MIN_KNOWN words it knows and, in one direction at
least, under ``min_coverage`` of them have a translation on the other side, the bodies do not
say the same thing.

Measured on the real development web's listed pairs (bodies with ≥ 30 known words): no translated
pair of 205 is under 0.45, and 6 of 23 partial or boilerplate-only pairs are; at 0.5, 2 translated
pairs would go.
"""
from __future__ import annotations

from training.learn.lexicon import Lexicon, stems
from training.learn.page_body import SiteLines, bodies

MIN_KNOWN = 30  # fewer known words each way: too little body to judge (forms, galleries)
MIN_COVERAGE = 0.45


def body_coverage_reason(source_text: str, target_text: str, site: SiteLines | None, lexicon: Lexicon,
                         min_coverage: float = MIN_COVERAGE, min_known: int | None = None) -> tuple[str | None, dict]:
    """(why the pair is no translation, or None; the figures read). ``source_text`` is in the
    lexicon's first language."""
    a, b = bodies(source_text, target_text, site)
    forward, backward, known = lexicon.coverage(stems(a), stems(b))
    if forward is None or backward is None or known < (MIN_KNOWN if min_known is None else min_known):
        return None, {}
    coverage = min(forward, backward)
    figures = {"body_coverage": round(coverage, 4), "body_known_words": known}
    if coverage < min_coverage:
        return (f"bodies of their own: the dictionary finds {coverage:.0%} of a body translated "
                f"(< {min_coverage:.0%}, {known} known words)"), figures
    return None, figures
