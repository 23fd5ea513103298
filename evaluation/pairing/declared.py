"""Method "hreflang": pairs the pages declare themselves.

Two kinds of declaration, both tagged method "hreflang" (``evidence`` tells which):
- ``<link rel="alternate" hreflang="sr" href=…>``: input per page url → {hreflang: url};
- language-switcher links: a link whose anchor text, image src/alt or title names
  the other language (``English``, ``SRP``, ``usa.png``, ``serbia.png``) and whose
  target the crawl confirmed in that language (input: ``SwitchLink``).
A declaration is only taken when both pages are known and their identified
languages are the two languages of the pair, so a template's hreflang that points
to another domain, or an sr-Latn page declaring its sr-Cyrl twin, is not a pair
(see scripts.py for the latter).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import unquote

from .records import DEFAULT_LANGUAGES, CandidatePair, base_language, check_languages

# Words that name a language in switchers: codes, names, flags' countries.  Not "us":
# it is also the English word ("About us"); flags say "usa", "en-us" or "flag-us".
LANGUAGE_HINTS: dict[str, frozenset[str]] = {
    "en": frozenset({"en", "eng", "english", "engleski", "енглески", "gb", "uk", "usa", "united-kingdom",
                     "great-britain", "britain", "uk-flag", "en-us", "en-gb", "flag-gb", "flag-us"}),
    "sr": frozenset({"sr", "srp", "srb", "srpski", "serbian", "serbia", "srbija", "rs", "српски", "срп", "србија",
                     "sr-latn", "sr-cyrl", "latinica", "ћирилица", "cirilica", "lat", "cir", "flag-rs"}),
    "hr": frozenset({"hr", "hrv", "cro", "hrvatski", "croatian", "croatia"}),
    "de": frozenset({"de", "deu", "ger", "deutsch", "german", "germany"}),
    "es": frozenset({"es", "esp", "español", "espanol", "spanish", "spain"}),
}
_WORD = re.compile(r"[^\W_]+(?:-[^\W_]+)*", re.UNICODE)


@dataclass(frozen=True)
class SwitchLink:
    source_url: str
    target_url: str
    anchor_text: str = ""
    img_src: str = ""
    img_alt: str = ""
    title: str = ""
    target_language: str = ""  # language the crawl confirmed for target_url ("" = unknown)


def hint_words(*texts: str, image_src: str = "") -> set[str]:
    """Case-folded words and hyphen/underscore-joined words of anchor, alt and title
    text, and of the file name of an image (``flags/united-kingdom.png``)."""
    words: set[str] = set()
    image_name = unquote(image_src or "").split("?")[0].rsplit("/", 1)[-1]
    for text in (*texts, image_name):
        text = unquote(text or "").casefold()
        text = re.sub(r"\.(png|jpe?g|gif|svg|webp|ico)\b", " ", text).replace("_", "-")
        for word in _WORD.findall(text):
            words.add(word)
            words.update(word.split("-"))
    return words


def names_language(link: SwitchLink, language: str, hints: Mapping[str, frozenset[str]] = LANGUAGE_HINTS) -> bool:
    vocabulary = hints.get(base_language(language))
    if not vocabulary:
        raise ValueError(f"no switcher hint words for language {language!r}; pass hints=")
    return bool(hint_words(link.anchor_text, link.img_alt, link.title, image_src=link.img_src) & vocabulary)


def _oriented(url_a: str, lang_a: str, url_b: str, lang_b: str, first: str, second: str):
    if (lang_a, lang_b) == (first, second):
        return url_a, url_b
    if (lang_a, lang_b) == (second, first):
        return url_b, url_a
    return None


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
            if _oriented(url, lang, other, other_lang, first, second):
                directed[(url, other)] = tag
                claims.setdefault(other, set()).add(url)
    out: dict[tuple[str, str], CandidatePair] = {}
    for (a, b), tag in sorted(directed.items()):
        reciprocal = (b, a) in directed
        if len(claims[b]) > 1 and not reciprocal:
            continue
        pair = _oriented(a, base_language(page_languages.get(a)), b, base_language(page_languages.get(b)),
                         first, second)
        if pair not in out:
            out[pair] = CandidatePair(*pair, "hreflang", None, 1.0, evidence=f"hreflang={tag} on {a}")
    return list(out.values())


def switcher_pairs(page_languages: Mapping[str, str], links: Iterable[SwitchLink], *,
                   languages=DEFAULT_LANGUAGES,
                   hints: Mapping[str, frozenset[str]] = LANGUAGE_HINTS) -> list[CandidatePair]:
    """Pairs from language-switcher links whose target is confirmed in the other language.

    A switcher that sends many pages to one page (every Serbian page's "English"
    flag pointing at the English home page) names the other language's home, not
    each page's counterpart: a target claimed by several source pages is kept only
    for the page it links back to with a switcher of its own.
    """
    first, second = check_languages(languages)
    directed: dict[tuple[str, str], SwitchLink] = {}
    claims: dict[str, set[str]] = {}
    for link in links:
        src_lang = base_language(page_languages.get(link.source_url))
        tgt_lang = base_language(link.target_language or page_languages.get(link.target_url))
        if link.source_url == link.target_url or not tgt_lang or src_lang == tgt_lang:
            continue
        if tgt_lang not in hints or not names_language(link, tgt_lang, hints):
            continue
        if _oriented(link.source_url, src_lang, link.target_url, tgt_lang, first, second):
            directed[(link.source_url, link.target_url)] = link
            claims.setdefault(link.target_url, set()).add(link.source_url)
    out: dict[tuple[str, str], CandidatePair] = {}
    for (a, b), link in sorted(directed.items()):
        reciprocal = (b, a) in directed
        if len(claims[b]) > 1 and not reciprocal:
            continue
        src_lang = base_language(page_languages.get(a))
        tgt_lang = base_language(link.target_language or page_languages.get(b))
        pair = _oriented(a, src_lang, b, tgt_lang, first, second)
        if pair not in out:
            how = "reciprocal switcher links" if reciprocal else f"switcher link on {a}"
            out[pair] = CandidatePair(*pair, "hreflang", None, 1.0 if reciprocal else 0.9, evidence=how)
    return list(out.values())
