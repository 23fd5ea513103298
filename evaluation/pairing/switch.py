"""Method "switch": a page paired with the page its language-switch link points to.

A switch link is a link whose anchor text, title, image alt or image file name names the
other language (``EN``, ``ENG``, ``SRB``, ``Srpski``, ``Српски``, ``English``, ``lat``,
``ћир``, ``usa.png``, ``serbia.png``), or that declares it with ``hreflang`` on the ``<a>``,
and whose target the crawl confirmed in that language.  Links found in scripts and event
attributes (``onclick="location.href='/en/'"``, kind ``onclick`` / ``script``) count the same
way: their anchor or declared language names the side.

Unlike a URL pattern, a switch pairs translated slugs (``/biografije.html`` ↔
``/eng/biographies.html``): the site itself says which page is the other side.  A switch
that sends many pages to one page (every Serbian page's flag pointing at the English home
page) names the other language's home, not each page's counterpart: a target claimed by
several source pages is kept only for the page that links back with a switch of its own.
The pair's evidence names the switch (its label, image, the page it is on, and whether the
other side links back).
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
    "en": frozenset({"en", "eng", "english", "engleski", "енглески", "енг", "gb", "uk", "usa", "united-kingdom",
                     "great-britain", "britain", "uk-flag", "en-us", "en-gb", "flag-gb", "flag-us"}),
    "sr": frozenset({"sr", "srp", "srb", "srpski", "serbian", "serbia", "srbija", "rs", "српски", "срп", "срб",
                     "србија", "sr-latn", "sr-cyrl", "latinica", "латиница", "ћирилица", "cirilica", "ćirilica",
                     "lat", "лат", "cir", "ćir", "ћир", "flag-rs"}),
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
    hreflang: str = ""  # hreflang / data-lang declared on the link itself
    kind: str = "a"  # how the link was found: a, area, onclick, script (speculative)


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


def switch_signals(link: SwitchLink, language: str, hints: Mapping[str, frozenset[str]] = LANGUAGE_HINTS
                   ) -> list[str]:
    """What on the link names ``language``: ["hreflang=sr", "anchor 'SRP'", "image rs.png", …]."""
    vocabulary = hints.get(base_language(language))
    if not vocabulary:
        raise ValueError(f"no switcher hint words for language {language!r}; pass hints=")
    found = []
    if link.hreflang and base_language(link.hreflang) == base_language(language):
        found.append(f"hreflang={link.hreflang}")
    for label, text in (("anchor", link.anchor_text), ("title", link.title), ("alt", link.img_alt)):
        if text and hint_words(text) & vocabulary:
            found.append(f"{label} '{text[:40]}'")
    if link.img_src and hint_words(image_src=link.img_src) & vocabulary:
        found.append(f"image {unquote(link.img_src).split('?')[0].rsplit('/', 1)[-1][:60]}")
    return found


def names_language(link: SwitchLink, language: str, hints: Mapping[str, frozenset[str]] = LANGUAGE_HINTS) -> bool:
    return bool(switch_signals(link, language, hints))


def oriented(url_a: str, lang_a: str, url_b: str, lang_b: str, first: str, second: str):
    """(page in ``first``, page in ``second``) of two pages, or None when their languages are not the pair."""
    if (lang_a, lang_b) == (first, second):
        return url_a, url_b
    if (lang_a, lang_b) == (second, first):
        return url_b, url_a
    return None


def _describe(link: SwitchLink, signals: list[str]) -> str:
    how = "" if link.kind in ("a", "") else f" ({link.kind})"
    return f"{', '.join(signals)}{how} on {link.source_url}"


def switch_pairs(page_languages: Mapping[str, str], links: Iterable[SwitchLink], *,
                 languages=DEFAULT_LANGUAGES,
                 hints: Mapping[str, frozenset[str]] = LANGUAGE_HINTS) -> list[CandidatePair]:
    """Method "switch": pairs from language-switch links whose target is confirmed in the other language.

    Score 1.0 when both sides switch to each other, 0.9 for a one-way switch."""
    first, second = check_languages(languages)
    directed: dict[tuple[str, str], tuple[SwitchLink, list[str]]] = {}
    claims: dict[str, set[str]] = {}
    for link in links:
        src_lang = base_language(page_languages.get(link.source_url))
        tgt_lang = base_language(link.target_language or page_languages.get(link.target_url))
        if link.source_url == link.target_url or not tgt_lang or src_lang == tgt_lang or tgt_lang not in hints:
            continue
        signals = switch_signals(link, tgt_lang, hints)
        if signals and oriented(link.source_url, src_lang, link.target_url, tgt_lang, first, second):
            directed.setdefault((link.source_url, link.target_url), (link, signals))
            claims.setdefault(link.target_url, set()).add(link.source_url)
    out: dict[tuple[str, str], CandidatePair] = {}
    for (a, b), (link, signals) in sorted(directed.items()):
        back = directed.get((b, a))
        if len(claims[b]) > 1 and back is None:
            continue
        src_lang = base_language(page_languages.get(a))
        tgt_lang = base_language(link.target_language or page_languages.get(b))
        pair = oriented(a, src_lang, b, tgt_lang, first, second)
        if pair in out:
            continue
        evidence = f"switch {_describe(link, signals)}"
        if back is not None:
            evidence += f"; back: {_describe(*back)}"
        out[pair] = CandidatePair(*pair, "switch", None, 1.0 if back else 0.9, evidence=evidence)
    return list(out.values())

