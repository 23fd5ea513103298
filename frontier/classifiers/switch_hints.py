"""Which language a switch link names, read from what real switchers show, and URL guesses.

Pure module. Real sites mark their language switch with a short anchor (EN, ENG, SRB, Srpski,
Српски, lat, ћир, an emoji flag 🇬🇧), a title, a flag image (``usa.png``, ``britanija.jpg``,
``alt="English"``), an ``hreflang`` or ``data-lang`` attribute, a language code a script fills in,
or, on a bare link, its address (``../engleski/index.html``, ``about_en.html``): ``switch_language``
reads those and answers the code of the language the link leads to. The Link Predictor scores
links statistically; these hints let the BS Detector also read the links the model ranks low
(a bare "SRB" button read from an event handler). ``language_swaps`` guesses the other language's
URL of a page whose URL carries a language unit (``index-sr.html`` -> ``index-en.html``), as
Pupsniffer's URL pairing patterns do.
"""
from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import unquote, urlsplit, urlunsplit

from crawlweb.crawler.urls import registrable_domain
from frontier.classifiers.link_features import LinkContext

# Short labels and flag words per language (case-folded). Not "us" (About us) nor "me" (About me).
# The pair's names in other languages too (Serbisch, anglais, сербский): a site entered from its
# third language names its Serbian and English versions in that language.
SWITCH_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset("""en eng engl english engleski енглески gb uk usa united-kingdom great-britain britain
                       flag-gb flag-us flag-uk en-us en-gb england engleska енглеска britanija британија
                       velika-britanija united-states america amerika америка
                       englisch anglais inglese inglés ingles английский английская англиски angol angielski
                       engelsk anglicky anglický angleško angleščina""".split()),
    "sr": frozenset("""sr srb srp srpski serbian serbia srbija rs српски срп србија sr-latn sr-cyrl latinica
                       ћирилица cirilica ćirilica латиница lat cir ћир лат flag-rs
                       serbisch serbe serbo serbio сербский сербская szerb serbski serbisk srbsky srbský srbsko
                       srbščina""".split()),
}
# Words that name a language as a unit of a link's address (_UNIT: a folder, or a part of a file name between - _ .):
# /engleski/, /eng/, index_en.html, /lat/. Codes and language names only: a country's name in a URL
# (/blog/srbija-turizam.html) is a topic, not a language version.
URL_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset("en eng engl english engleski енглески".split()),
    "sr": frozenset("""sr srb srp srpski serbian српски срп rs lat cir latinica cirilica ćirilica ћирилица
                       латиница лат ћир""".split()),
}
# An emoji flag is two regional indicator letters (🇬🇧 = G B); the US flag reads "usa", since "us"
# alone is no language mark (About us).
_REGIONAL_INDICATOR_A = 0x1F1E6
_FLAG = re.compile("[\U0001F1E6-\U0001F1FF]{2}")
_FLAG_WORDS = {"us": "usa"}
MAX_LABEL_WORDS = 4  # a switcher's label is short; "Latest news in English" is a link, not a switch
_WORD = re.compile(r"[^\W_]+(?:-[^\W_]+)*", re.UNICODE)
_HOST_LIKE = re.compile(r"[^\W_]\.[^\W_\d]{2,}(?:[/:]|\b)", re.UNICODE)
_IMAGE_EXTENSION = re.compile(r"\.(?:png|jpe?g|gif|svg|webp|ico)$", re.IGNORECASE)
_EXTENSION = re.compile(r"\.[a-z0-9]{1,5}$", re.IGNORECASE)


def base_code(code: str | None) -> str:
    return (code or "").strip().replace("_", "-").split("-")[0].lower()


def same_site(url: str, other: str) -> bool:
    """One site: the same host but for www., a subdomain of the other (en.primer.rs, primer.rs), or
    siblings under one parent of two labels or more (en.primer.rs, sr.primer.rs; not two sites of
    one hosting suffix such as a.github.io, b.github.io, whose parent is the suffix itself)."""
    a, b = ((urlsplit(u).hostname or "").removeprefix("www.") for u in (url, other))
    if a == b or a.endswith("." + b) or b.endswith("." + a):
        return bool(a)
    parent_a, parent_b = a.partition(".")[2], b.partition(".")[2]
    return parent_a == parent_b and parent_a.count(".") >= 1 and not _is_suffix_like(parent_a)


def _is_suffix_like(parent: str) -> bool:
    """A parent that is a public suffix (github.io, co.rs) or a bare registrable name with nothing under it."""
    return registrable_domain("x." + parent) == "x." + parent


def _flag_letters(match: re.Match) -> str:
    code = "".join(chr(ord("a") + ord(c) - _REGIONAL_INDICATOR_A) for c in match.group())
    return f" {_FLAG_WORDS.get(code, code)} "


def _label_words(text: str) -> set[str]:
    text = _FLAG.sub(_flag_letters, text or "")
    out: set[str] = set()
    if _HOST_LIKE.search(text):
        return out  # "www.primer.rs", "primer.rs/en": a site's name, not a switcher's label
    for word in _WORD.findall(unquote(text).casefold()):
        out.add(word)
        out.update(word.split("-"))
    return out


def _image_words(src: str) -> set[str]:
    name = unquote(src or "").split("?")[0].rsplit("/", 1)[-1]
    return _label_words(_IMAGE_EXTENSION.sub("", name).replace("_", "-"))


def switch_language(link: LinkContext, languages: tuple[str, ...] = ("sr", "en")) -> str | None:
    """The language of ``languages`` the link's own marks name, or None (no mark, or several)."""
    declared = base_code(link.hreflang)
    if declared in languages:
        return declared
    texts = [link.anchor_text, link.img_alt]
    named = set()
    for language in languages:
        vocabulary = SWITCH_WORDS.get(language, frozenset({language}))
        for text in texts:
            found = _label_words(text)
            if found and len(_WORD.findall(text or "")) <= MAX_LABEL_WORDS and found & vocabulary:
                named.add(language)
        if _image_words(link.img_src) & vocabulary:
            named.add(language)
    if not named:  # a bare link: the language its address names (/engleski/index.html, about_en.html)
        path = unquote(urlsplit((link.url or "").strip()).path)
        # "/": a relative path's first folder is a unit too; each name's extension goes (x.rs is no unit)
        path = "/".join(_EXTENSION.sub("", segment) for segment in ("/" + path).split("/"))
        named = {language for language in languages
                 if _unit_pattern(URL_WORDS.get(language, frozenset({language}))).search(path)}
    return named.pop() if len(named) == 1 else None


# A language unit between separators: /sr/, -en., _sr., ?lang=en, sr.host
_UNIT = r"(?<=[/\-_.=])({units})(?=[/\-_.&]|$)"


@lru_cache(maxsize=64)
def _unit_pattern(units: frozenset[str]) -> re.Pattern:
    """Any of ``units`` as a language unit of an address (case-insensitive)."""
    alternatives = "|".join(re.escape(unit) for unit in sorted(units, key=lambda unit: (-len(unit), unit)))
    return re.compile(_UNIT.format(units=alternatives), re.IGNORECASE)


def language_swaps(url: str, from_language: str, to_language: str) -> list[str]:
    """URLs of ``url`` with its ``from_language`` unit swapped for ``to_language`` (path, query, host)."""
    parts = urlsplit(url)
    pattern = _unit_pattern(frozenset({from_language}))
    out = []
    for field in ("path", "query"):
        value = getattr(parts, field)
        if pattern.search(value):
            out.append(urlunsplit(parts._replace(**{field: pattern.sub(to_language, value)})))
    host = parts.netloc
    if host.lower().startswith(from_language + "."):
        out.append(urlunsplit(parts._replace(netloc=to_language + host[len(from_language):])))
    return list(dict.fromkeys(u for u in out if u != url))
