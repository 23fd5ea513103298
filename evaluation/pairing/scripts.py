"""Cyrillic–Latin Serbian: script variants are one text, not a translation.

A Serbian page in Cyrillic and its Latin transliteration must never be proposed as
an sr–en pair; they are recorded as script variants of one page.  Evidence:
- page languages "sr-Cyrl"/"sr-Latn" (or lang "sr" with script "Cyrl"/"Latn");
- URL pairing patterns between the Latin and the Cyrillic pages (⟨lat, cir⟩, ⟨latinica, ћирилица⟩),
  mined exactly as Def. 1–3, with the same local threshold;
- declared alternates between the two scripts;
- text: transliterating the Cyrillic text gives (almost) the Latin text, which also
  catches a Latin page that language identification mislabelled.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from crawlweb.language.transliterate import cyrillic_to_latin

from .methods import LOCAL_THRESHOLD
from .patterns import mine_pairs
from .records import CandidatePair, PageRecord, base_language, pattern_label


@dataclass(frozen=True)
class ScriptVariant:
    latin_url: str
    cyrillic_url: str
    evidence: str


def to_latin(text: str) -> str:
    """Serbian Cyrillic transliterated to Latin (other characters unchanged)."""
    return cyrillic_to_latin(text)


def cyrillic_share(text: str) -> float:
    letters = [c for c in text if c.isalpha()]
    return sum("\u0400" <= c <= "\u04ff" for c in letters) / len(letters) if letters else 0.0


def transliteration_similarity(text_a: str, text_b: str, max_chars: int = 20000) -> float:
    """Similarity (0..1) of two texts after transliterating both to Latin, case-folded: the Dice
    coefficient of their word-bigram multisets (word counts when a text has one word).

    Linear in the text length: difflib's ratio, used before, is quadratic and took about 80 ms on
    3,000 characters, once per candidate pair at every rescoring of a site."""
    a, b = _word_grams(text_a[:max_chars]), _word_grams(text_b[:max_chars])
    total = sum(a.values()) + sum(b.values())
    return 2 * sum((a & b).values()) / total if total else 0.0


_WORD = re.compile(r"\w+")


def _word_grams(text: str) -> Counter:
    words = _WORD.findall(to_latin(text).casefold())
    return Counter(zip(words, words[1:])) if len(words) > 1 else Counter(words)


def serbian_scripts(pages: Iterable[PageRecord]) -> dict[str, str]:
    """url → "latn"/"cyrl" of the Serbian pages whose script is known (combine_candidates' ``scripts``)."""
    return {p.url: p.script_code for p in pages if p.base_lang == "sr" and p.script_code in ("latn", "cyrl")}


def is_script_variant_pair(lang_a: str, lang_b: str) -> bool:
    """Both pages Serbian (any script): never an sr–en translation pair."""
    return base_language(lang_a) == "sr" and base_language(lang_b) == "sr"


def split_script_variants(candidates: Iterable[CandidatePair], page_languages: dict[str, str]
                          ) -> tuple[list[CandidatePair], list[ScriptVariant]]:
    """Guard for any proposal: pairs whose two pages are both Serbian become script variants."""
    kept, variants = [], []
    for cand in candidates:
        if is_script_variant_pair(page_languages.get(cand.source_url, ""), page_languages.get(cand.target_url, "")):
            variants.append(ScriptVariant(cand.source_url, cand.target_url, f"both Serbian ({cand.method})"))
        else:
            kept.append(cand)
    return kept, variants


def script_variant_pairs(pages: Iterable[PageRecord], *, declared: Iterable[tuple[str, str]] = (),
                         threshold: float = LOCAL_THRESHOLD, min_frequency: int = 2) -> list[ScriptVariant]:
    """Script-variant pairs of one site: URL patterns between its Latin and Cyrillic
    Serbian pages (C(k, w) ≥ threshold, |w| = all pages given) plus declared pairs."""
    pages = list(pages)
    scripts = {p.url: p.script_code for p in pages if p.base_lang == "sr"}
    latin = sorted(u for u, s in scripts.items() if s == "latn")
    cyrillic = sorted(u for u, s in scripts.items() if s == "cyrl")
    found: dict[tuple[str, str], ScriptVariant] = {}
    if latin and cyrillic:
        patterns, _ = mine_pairs(latin, cyrillic)
        for entry in sorted(patterns.values(), key=lambda e: -e.frequency):
            if entry.frequency >= min_frequency and 2 * entry.frequency / len(pages) >= threshold:
                for pair in sorted(entry.pairs):
                    found.setdefault(pair, ScriptVariant(*pair, f"URL pattern {pattern_label(entry.pattern)}"))
    for a, b in declared:
        if scripts.get(a) == "latn" and scripts.get(b) == "cyrl":
            found.setdefault((a, b), ScriptVariant(a, b, "declared"))
        elif scripts.get(a) == "cyrl" and scripts.get(b) == "latn":
            found.setdefault((b, a), ScriptVariant(b, a, "declared"))
    return list(found.values())
