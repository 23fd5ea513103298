"""What a page says about its own language: markup declarations and the URL's language marker.

Pure module (no Django). Read from the parse the crawler already made (no second parse):

* ``html_lang``: ``<html lang>``, else ``xml:lang``, else ``<meta http-equiv=content-language>``
  (htmlparse keeps the first of these as ParsedPage.lang);
* ``og_locale``: ``<meta property="og:locale">`` (sr_RS, hr_HR, en_US ...);
* ``hreflang_self``: the hreflang of an ``<link rel=alternate>`` that points at the page itself
  (a page listing its own URL among its language versions names its language per page);
* the URL's marker: a path segment (/sr/, /en/, /eng/, /ba/, /lat/, /ћир/), a file name's last
  token (about_sr.html, index-cnr.html, index_cir.html) or a capitalised code glued to it
  (kontaktENG.html, receptiEn.html), a query parameter (?lang=sr) or a language subdomain
  (en.example.rs).

How much each weighs is decided where the evidence is combined (identify.py, site_variety.py).
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from urllib.parse import parse_qs, unquote, urlsplit

# Codes (and the non-standard ones sites use) -> our language code. "ba" is Bashkir in ISO 639,
# but on a web page beside "en" it is Bosnia's language; "cg"/"mne" are Montenegrin site labels.
LANGUAGE_ALIASES = {
    "sr": "sr", "srp": "sr", "srb": "sr", "rs": "sr", "sh": "sr",
    "hr": "hr", "hrv": "hr", "cro": "hr",
    "bs": "bs", "bos": "bs", "ba": "bs",
    "cnr": "cnr", "me": "cnr", "mne": "cnr", "cg": "cnr",
    "mk": "mk", "mkd": "mk", "mac": "mk",
    "sl": "sl", "slv": "sl", "si": "sl", "slo": "sl",
    "en": "en", "eng": "en",
    "de": "de", "deu": "de", "ger": "de", "es": "es", "esp": "es", "fr": "fr", "it": "it", "ita": "it",
    "ru": "ru", "rus": "ru", "tr": "tr", "hu": "hu", "hun": "hu",
}
SCRIPT_ALIASES = {
    "latn": "Latn", "lat": "Latn", "latin": "Latn", "latinica": "Latn", "латиница": "Latn", "лат": "Latn",
    "cyrl": "Cyrl", "cyr": "Cyrl", "cir": "Cyrl", "cirilica": "Cyrl", "ćirilica": "Cyrl", "ћир": "Cyrl",
    "ћирилица": "Cyrl", "cyrillic": "Cyrl",
}
# In a host name only unambiguous codes count (me.example.com, it.example.com are words there).
HOST_LANGUAGES = frozenset({"sr", "srb", "en", "eng", "hr", "bs", "mk", "sl", "de", "ru", "lat", "cyr"})
# In a compound file name only the last token counts, and only codes that are not common words.
TOKEN_EXCLUDED = frozenset({"me", "it", "si", "ba", "mac", "rs", "sh", "es", "fr", "tr"})
QUERY_KEYS = frozenset({"lang", "language", "lng", "jezik", "hl", "locale", "l", "pismo", "script"})
_EXTENSION = re.compile(r"\.(?:html?|php\d?|aspx?|jsp|cfm|shtml)$", re.IGNORECASE)
_TOKEN_SPLIT = re.compile(r"[-_.]")
# A code glued to a file name without a separator, told apart by its capital: kontaktENG.html,
# receptiEn.html, onamaSR.html (course projects name their pages so); a lower-case glued "en"
# (kontakten.html) is a word's ending as often as a marker, and is not read.
_GLUED_SUFFIX = re.compile(r"(?<=[a-z0-9])([A-Z][A-Z]{1,2}|[A-Z][a-z]{1,2})$")
BCMS = ("sr", "hr", "bs", "cnr")
# Declarations made for one page: by itself, or by its site's switch that links to it (switch_labels.py);
# a site's template repeats its html lang on every page.
PER_PAGE_SOURCES = ("url", "hreflang_self", "switch")


@dataclass(frozen=True)
class LanguageTag:
    """A declared tag read as (language, script, region); any part may be None."""

    language: str | None
    script: str | None = None
    region: str | None = None


@dataclass(frozen=True)
class Declarations:
    """Everything a page declares about its language, each source kept apart."""

    html_lang: LanguageTag | None = None
    og_locale: LanguageTag | None = None
    hreflang_self: LanguageTag | None = None
    url: LanguageTag | None = None

    def as_evidence(self) -> dict:
        return {name: {k: v for k, v in asdict(tag).items() if v}
                for name, tag in (("html_lang", self.html_lang), ("og_locale", self.og_locale),
                                  ("hreflang_self", self.hreflang_self), ("url", self.url)) if tag}

    def languages(self) -> dict[str, str]:
        """source -> declared language code (sources that name a language)."""
        found = {}
        for name in ("html_lang", "og_locale", "hreflang_self", "url"):
            tag = getattr(self, name)
            if tag is not None and tag.language:
                found[name] = tag.language
        return found

    @property
    def script(self) -> str | None:
        for tag in (self.url, self.hreflang_self, self.html_lang, self.og_locale):
            if tag is not None and tag.script:
                return tag.script
        return None


def parse_tag(tag: str | None) -> LanguageTag | None:
    """BCP 47 or POSIX-style tag -> LanguageTag: "sr-Latn-RS", "sr_RS@latin", "bs-ba", "en-gb".

    None for an empty or unreadable tag; an unknown primary language is kept as written so the
    caller can see it (it weighs for nothing in the BCMS choice)."""
    if not tag or not isinstance(tag, str):
        return None
    text = tag.strip().lower().replace("_", "-")
    text, _, modifier = text.partition("@")
    parts = [p for p in text.split("-") if p]
    if not parts or not parts[0].isalpha() or len(parts[0]) > 8:
        return None
    language = LANGUAGE_ALIASES.get(parts[0], parts[0])
    script = SCRIPT_ALIASES.get(modifier) if modifier else None
    region = None
    for part in parts[1:]:
        if len(part) == 4 and part.isalpha():
            script = SCRIPT_ALIASES.get(part, script)
        elif len(part) == 2 and part.isalpha():
            region = part.upper()
    return LanguageTag(language, script, region)


def url_marker(url: str) -> LanguageTag | None:
    """The language (and script) a URL names for its page, or None.

    Precedence: query parameter, then the deepest path marker, then a language subdomain; a
    script marker (lat/cyr/ћир) anywhere in the path is kept beside the language."""
    parts = urlsplit(url if "//" in url else "//" + url)
    found = [_token(values[0].lower(), whole=True) for key, values in parse_qs(parts.query).items()
             if key.lower() in QUERY_KEYS and values]
    found += [_segment(segment) for segment in reversed(unquote(parts.path).split("/"))]
    labels = (parts.hostname or "").split(".")
    if len(labels) >= 3 and labels[0] in HOST_LANGUAGES:
        found.append(_token(labels[0], whole=True))
    found = [tag for tag in found if tag is not None]
    language = next((tag.language for tag in found if tag.language), None)
    script = next((tag.script for tag in found if tag.script), None)
    if language is None and script is None:
        return None
    return LanguageTag(language, script)


def _segment(segment: str) -> LanguageTag | None:
    """A path segment's marker; ``segment`` as the URL has it (its letter case marks a glued suffix)."""
    cased = _EXTENSION.sub("", segment)
    stem = cased.lower()
    if not stem:
        return None
    whole = _token(stem, whole=True)
    if whole is not None:
        return whole
    tokens = [t for t in _TOKEN_SPLIT.split(stem) if t]
    if len(tokens) >= 2:
        return _token(tokens[-1], whole=False)
    glued = _GLUED_SUFFIX.search(cased)
    if glued is not None:
        return _token(glued.group(1).lower(), whole=False)
    return None


def _token(token: str, *, whole: bool) -> LanguageTag | None:
    if token in SCRIPT_ALIASES:
        return LanguageTag(None, SCRIPT_ALIASES[token])
    if not whole and token in TOKEN_EXCLUDED:
        return None
    if token in LANGUAGE_ALIASES:
        return LanguageTag(LANGUAGE_ALIASES[token])
    subtags = _TOKEN_SPLIT.split(token)
    if whole and len(subtags) > 1 and all(len(t) in (2, 4) for t in subtags[1:]):  # sr-Latn, sr_RS
        tag = parse_tag(token)
        if tag is not None and tag.language in LANGUAGE_ALIASES.values():
            return tag
    return None


def _same_page(a: str, b: str) -> bool:
    def key(u: str) -> str:
        p = urlsplit(u)
        path = p.path or "/"
        path = re.sub(r"/index\.(?:html?|php)$", "/", path)
        return f"{(p.hostname or '').removeprefix('www.')}{path.rstrip('/')}?{p.query}"
    return key(a) == key(b)


def page_declarations(url: str, html_lang: str | None = None, og_locale: str | None = None,
                      alternates: list[tuple[str, str]] | tuple = ()) -> Declarations:
    """A page's declarations; ``alternates`` are (url, hreflang) of its rel=alternate links."""
    self_tag = None
    for target, hreflang in alternates:
        if hreflang and hreflang != "x-default" and _same_page(target, url):
            self_tag = parse_tag(hreflang)
            break
    return Declarations(html_lang=parse_tag(html_lang), og_locale=parse_tag(og_locale),
                        hreflang_self=self_tag, url=url_marker(url) if url else None)


def parsed_page_declarations(parsed, url: str) -> Declarations:
    """Declarations of a crawler ParsedPage (duck-typed: lang, og_locale, links)."""
    alternates = [(link.url, link.hreflang) for link in getattr(parsed, "links", ())
                  if link.kind == "alternate" and link.hreflang]
    return page_declarations(url, getattr(parsed, "lang", None), getattr(parsed, "og_locale", None),
                             alternates)
