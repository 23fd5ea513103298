"""Content check "untranslated": a side whose body is not in its language is no translation.

Real bilingual sites leave pages half done: the English page keeps the English menu and footer
of its template over the Serbian body it was copied from (or the other way round).  Page-level
language identification may still call such a page English (the template, ``html lang="en"``,
the URL's ``/en/``), so the pair looks right by its languages.  Two pieces of evidence read the
text itself:
- function words: the short words every sentence needs (the, and, of / je, i, u, da) are counted
  for both languages; a side whose text holds clearly more of the other language's than of its
  own is in the other language, whatever its menu says;
- shared text: the two sides' texts, transliterated to Latin, share most of their word bigrams
  (a translation shares names and numbers, not running text).
Serbian function words are those of the whole Serbo-Croatian area (ijekavian, Croatian and
Bosnian text count as the Serbian side here: telling those apart is language identification's job).
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from .records import PageRecord, base_language
from .scripts import cyrillic_share, to_latin, transliteration_similarity

FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset("the and of to in is are was were for with that this from by on as be it which have has "
                    "our we you your their an or not at".split()),
    "sr": frozenset("je i u da se na za su od sa ili kao koji koja koje što sto to ne ali iz po kod biti bio "
                    "bila smo ste sam takođe takodje kako ovaj ova ovo".split()),
}
MIN_FUNCTION_WORDS = 8  # fewer than this many function words in all: too little text to judge
OTHER_LANGUAGE_FACTOR = 2.0  # the other language's function words outnumber the page's own this many times
SHARED_TEXT_SIMILARITY = 0.75  # word-bigram Dice of the transliterated texts; real true pairs reach 0.51 (a contact form)
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def function_word_counts(text: str, languages=("en", "sr")) -> dict[str, int]:
    """How many of the text's words are function words of each language (Cyrillic read as Latin)."""
    words = _WORD.findall(to_latin(text).casefold())
    return {lang: sum(w in FUNCTION_WORDS[lang] for w in words) for lang in languages if lang in FUNCTION_WORDS}


def body_language_mismatch(text: str, language: str, other: str) -> str | None:
    """The reason a page declared/identified as ``language`` reads as ``other``, or None."""
    language, other = base_language(language), base_language(other)
    if language not in FUNCTION_WORDS or other not in FUNCTION_WORDS:
        return None
    counts = function_word_counts(text, (language, other))
    own, theirs = counts[language], counts[other]
    if own + theirs >= MIN_FUNCTION_WORDS and theirs >= OTHER_LANGUAGE_FACTOR * max(own, 1):
        return (f"untranslated: the {language} page's body is in {other} "
                f"(function words {language} {own}, {other} {theirs})")
    return None


def untranslated_reason(source: PageRecord, target: PageRecord, texts: tuple[str, str],
                        languages: tuple[str, str]) -> tuple[str | None, Mapping[str, float]]:
    """Why the pair is not a translation because one side was never translated (None when it was),
    and the figures behind it."""
    first, second = languages
    scores: dict[str, float] = {}
    for text, lang, other in ((texts[0], first, second), (texts[1], second, first)):
        if text:
            reason = body_language_mismatch(text, lang, other)
            if reason:
                return reason, scores
    if all(texts) and abs(cyrillic_share(texts[0]) - cyrillic_share(texts[1])) < 0.5:  # same script
        shared = transliteration_similarity(*texts)
        scores["shared_text"] = shared
        if shared >= SHARED_TEXT_SIMILARITY:
            return (f"untranslated: the {first} and {second} pages share their text "
                    f"(word-bigram overlap {shared:.2f} ≥ {SHARED_TEXT_SIMILARITY})"), scores
    return None, scores
