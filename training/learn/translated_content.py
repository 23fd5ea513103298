"""What the evaluators' thin-page rule reads in two bodies: translated sentences and translated words.

Pure module. The rule evaluators judge by (data/realweb/README.md, *Thin pages*) calls a pair
parallel when, beyond the site's template, it has at least one translated sentence or several
translated items; a page whose only body is a heading, sort / search / form labels or names left
untranslated is boilerplate. The bodies (evaluation.bodies.page_body.bodies) are what is beyond the
template; a body line that the other body carries verbatim is left untranslated (a name, an
address, a price); the rest is read:

* ``translated_sentences_log``: log(1 + the fewer, of the two bodies, of such lines with at least
  SENTENCE_WORDS words): a heading or a label has fewer;
* ``translated_sentence``: 1 when both bodies have one;
* ``translated_words_log``: log(1 + the fewer words in such lines).

On the learning bench's held-out crawl (seed 1), the filter's kept pairs without a translated
sentence held 37 of its 48 false positives and 14 of its 123 right pairs.
"""
from __future__ import annotations

import math
import re

SENTENCE_WORDS = 5
WORD = re.compile(r"[^\W\d_]{2,}")
TRANSLATED_CONTENT_FEATURE_NAMES: tuple[str, ...] = (
    "translated_sentences_log", "translated_sentence", "translated_words_log",
)


def _words_per_translated_line(body: list[str], other: list[str]) -> list[int]:
    """Words in each line of ``body`` that ``other`` does not carry verbatim."""
    carried = {line.casefold() for line in other}
    return [len(WORD.findall(line)) for line in body if line.casefold() not in carried]


def translated_content_features(source_body: list[str], target_body: list[str]) -> dict[str, float]:
    words = [_words_per_translated_line(source_body, target_body), _words_per_translated_line(target_body, source_body)]
    sentences = min(sum(n >= SENTENCE_WORDS for n in side) for side in words)
    return {
        "translated_sentences_log": math.log1p(sentences),
        "translated_sentence": 1.0 if sentences else 0.0,
        "translated_words_log": math.log1p(min(sum(side) for side in words)),
    }
