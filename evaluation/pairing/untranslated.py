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

Both read the pages' own text, not what they share with each other or with no language:
- a template's filler (lorem ipsum, crawlweb.language.filler) is left out of both sides: a gallery's
  translated captions over the same filler are not "shared text";
- a side is in the other language when its **own lines** (those the other side does not have) read
  as that language, or when the whole page does and its own lines are no body in its language: a
  line both pages carry (a template's English placeholder text under a Serbian page's translated
  body) says nothing about whether the rest was translated, but a Serbian menu over the English
  page's body is all a Serbian page has of its own;
- shared text removes a pair unless each side's own lines are a body in its own language
  (OWN_BODY_FUNCTION_WORDS of its function words, the other language's not outnumbering them): a
  restaurant's translated story above a dish list it left in English on both pages is a translation
  of what it translated, while a copy under a translated menu has no own body.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from crawlweb.language.filler import is_filler

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
OWN_BODY_FUNCTION_WORDS = 8  # a side's own lines hold a body in its language: at least this many of its function words
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


def _line_key(line: str) -> str:
    return " ".join(line.split()).casefold()


def own_lines(text_a: str, text_b: str) -> tuple[str, str]:
    """Each text without its filler lines and without the lines the other text also has (spacing and
    case aside); a text that shares none keeps all its lines but its filler."""
    lines = [[line for line in text.splitlines() if line.strip() and not is_filler(line)] for text in (text_a, text_b)]
    keys = [{_line_key(line) for line in side} for side in lines]
    both = keys[0] & keys[1]
    return tuple("\n".join(line for line in side if _line_key(line) not in both) for side in lines)


def without_filler(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not is_filler(line))


def _own_body(text: str, language: str, other: str) -> bool:
    """The text is a body in ``language``: enough of its function words, not outnumbered by ``other``'s."""
    counts = function_word_counts(text, (language, other))
    mine = counts.get(language, 0)
    return mine >= OWN_BODY_FUNCTION_WORDS and mine >= counts.get(other, 0)


def untranslated_reason(source: PageRecord, target: PageRecord, texts: tuple[str, str],
                        languages: tuple[str, str]) -> tuple[str | None, Mapping[str, float]]:
    """Why the pair is not a translation because one side was never translated (None when it was),
    and the figures behind it."""
    first, second = (base_language(lang) for lang in languages)
    scores: dict[str, float] = {}
    own = own_lines(*texts)
    for text, mine, lang, other in ((texts[0], own[0], first, second), (texts[1], own[1], second, first)):
        # its own lines read as the other language; or the whole page does and its own lines are no body
        reason = body_language_mismatch(mine, lang, other) if mine else None
        if reason is None and text and not _own_body(mine, lang, other):
            reason = body_language_mismatch(text, lang, other)
        if reason:
            return reason, scores
    plain = without_filler(texts[0]), without_filler(texts[1])
    if all(plain) and abs(cyrillic_share(plain[0]) - cyrillic_share(plain[1])) < 0.5:  # same script
        shared = transliteration_similarity(*plain)
        scores["shared_text"] = shared
        if shared >= SHARED_TEXT_SIMILARITY:
            if _own_body(own[0], first, second) and _own_body(own[1], second, first):
                scores["own_bodies_translated"] = True
                return None, scores
            return (f"untranslated: the {first} and {second} pages share their text "
                    f"(word-bigram overlap {shared:.2f} ≥ {SHARED_TEXT_SIMILARITY})"), scores
    return None, scores
