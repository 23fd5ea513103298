"""Word tokens of link contexts (URLs, anchors, image attributes), shared by the classifiers.

Pure module. Tokens are lower-cased, NFC-normalized runs of letters or digits; camelCase is split
first because file names such as ``emailEnglish.html`` carry the language word inside them.
"""
from __future__ import annotations

import re
import unicodedata
from urllib.parse import unquote, urlsplit

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)

# Units that name a language or script in URLs, anchors and flag images. Used for the relative
# feature "same URL except a language unit" (Barbosa et al. list URL patterns as a sign of
# parallel pages) and for labelling ambiguous real links. ISO 639-1 codes of European languages,
# their usual 3-letter forms, country codes used on flags, and the names used on switchers.
# Left out on purpose: "us" and "me" (contact-us.html, about-me.html are not language versions).
LANGUAGE_UNITS = frozenset(
    """
    en eng english engleski sr srp srb serbian srpski rs lat latn cyr cyrl latinica cirilica
    ћирилица латиница српски енглески hr hrv croatian hrvatski bs bos bosnian cnr
    de deu ger german deutsch es spa spanish espanol fr fra fre french it ita italian
    ru rus russian sl slv slovenian mk mkd macedonian hu hun hungarian ro ron romanian
    bg bul bulgarian gr el ell greek pl pol polish cs ces czech sk slk slovak
    uk gb usa ba
    """.split()
)


def words(text: str | None) -> list[str]:
    """Lower-case word tokens of free text (anchor, alt, text around a link)."""
    if not text:
        return []
    text = unicodedata.normalize("NFC", _CAMEL.sub(" ", text))
    return [w.lower() for w in _WORD.findall(text)]


def url_parts(url: str) -> tuple[str, str]:
    """(host, path-and-query) of a URL, percent-decoded; the scheme carries no signal.

    Crawled pages hold broken URLs (``http://[oops/``): those give no host and their text as path."""
    try:
        parts = urlsplit(url.strip())
        parts.hostname  # raises on a malformed IPv6 host or port
        parts.port
    except ValueError:
        return "", unquote(url)
    path = unquote(parts.path or "")
    if parts.query:
        path += "?" + unquote(parts.query)
    return (parts.hostname or ""), path


def url_words(url: str) -> list[str]:
    """Word tokens of host, path and query of a URL (``/img/flags/gb.png`` -> img, flags, gb, png)."""
    host, path = url_parts(url)
    return words(host) + words(path)


def path_words(url: str) -> list[str]:
    """Word tokens of the path and query only (the host is its own context for the NB classifiers)."""
    return words(url_parts(url)[1])


def host_words(url: str) -> list[str]:
    return words(url_parts(url)[0])


def without_language_units(tokens: list[str]) -> list[str]:
    return [t for t in tokens if t not in LANGUAGE_UNITS]


def language_units(tokens: list[str]) -> set[str]:
    return {t for t in tokens if t in LANGUAGE_UNITS}
