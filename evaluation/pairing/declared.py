"""Method "hreflang": pairs the pages declare with ``<link rel="alternate" hreflang=…>``.

Input per page url → {hreflang: url}.  A declaration is only taken when both pages
are known and their identified languages are the two languages of the pair, so a
template's hreflang that points to another domain, or an sr-Latn page declaring its
sr-Cyrl twin, is not a pair (see scripts.py for the latter).  Language-switch links
are the method "switch" of their own (switch.py).
"""
from __future__ import annotations

from collections.abc import Mapping

from .records import DEFAULT_LANGUAGES, CandidatePair, base_language, check_languages
from .switch import oriented


def hreflang_pairs(page_languages: Mapping[str, str], alternates: Mapping[str, Mapping[str, str]], *,
                   languages=DEFAULT_LANGUAGES) -> list[CandidatePair]:
    """Pairs from rel=alternate hreflang; page_languages: url → identified language.

    As with switchers, an alternate declared by several pages (a template that
    points every page at one home page) counts only where it is declared back.
    """
    first, second = check_languages(languages)
    directed: dict[tuple[str, str], str] = {}
    claims: dict[str, set[str]] = {}
    for url, declared in alternates.items():
        lang = base_language(page_languages.get(url))
        for tag, other in declared.items():
            other_lang = base_language(page_languages.get(other))
            if other == url or other not in page_languages or base_language(tag) != other_lang:
                continue
            if oriented(url, lang, other, other_lang, first, second):
                directed[(url, other)] = tag
                claims.setdefault(other, set()).add(url)
    out: dict[tuple[str, str], CandidatePair] = {}
    for (a, b), tag in sorted(directed.items()):
        reciprocal = (b, a) in directed
        if len(claims[b]) > 1 and not reciprocal:
            continue
        pair = oriented(a, base_language(page_languages.get(a)), b, base_language(page_languages.get(b)),
                         first, second)
        if pair not in out:
            out[pair] = CandidatePair(*pair, "hreflang", None, 1.0, evidence=f"hreflang={tag} on {a}")
    return list(out.values())
