"""The values a script's variable parts can take, read from the script itself (nothing is run).

A menu built by JavaScript names its pages as data and a template: ``[{code: "mona-lisa", naziv:
"Mona Liza"}, …]`` and ``"../" + (lang == 0 ? "rs" : "en") + "/umetnine/" + slike[i].code + ".html"``,
or ``items.map(item => `<a href="${item.href}">…</a>`)``. The URL exists only once the script runs, but
its variable parts can take only values the script itself writes down:

- a conditional of two literals (``cond ? "rs" : "en"``) takes either;
- a property access (``slike[i].code``, ``item.href``, ``${t.slug}``) takes the string values the
  script gives that property name in its object literals (``code: "mona-lisa"``, ``"code": "strazar"``),
  when they look like path pieces (no spaces), at most ``MAX_FILL_VALUES``.

Anything else is unknown (``None``): callers fill a language variable with the script's language codes,
or give the URL up. ``markup_targets`` reads the ``href`` attributes written in a script's strings (markup
built as text, ``el.href = "…"``): those are links the script writes, whatever their shape.
"""
from __future__ import annotations

import re

from .jsliterals import STRING, literal_value

MAX_FILL_VALUES = 30  # values one property may take: a catalogue's slugs, not a data dump
MAX_PROPERTY_NAMES = 200
_PROPERTY = re.compile(rf"""[{{,]\s*(?P<quote>["']?)(?P<key>[A-Za-z_$][\w$]{{0,40}})(?P=quote)\s*:\s*(?P<value>{STRING})""")
_PATH_PIECE = re.compile(r"^[\w\-.~%/]{1,100}$")
TERNARY = rf"""\((?:[^()'"`?]|\([^()]{{0,40}}\)){{0,80}}\?\s*(?:{STRING})\s*:\s*(?:{STRING})\s*\)"""
_TERNARY_PARTS = re.compile(rf"""\?\s*(?P<a>{STRING})\s*:\s*(?P<b>{STRING})\s*\)$""")
_PROPERTY_ACCESS = re.compile(r"""(?:\.\s*(?P<dot>[A-Za-z_$][\w$]*)|\[\s*["'](?P<bracket>[A-Za-z_$][\w$]*)["']\s*\])\s*$""")
# href="…" in markup built as text, or el.href = "…"; not the first piece of a concatenation (href = '/index-'
# + lang), which navigation_targets fills
_MARKUP_HREF = re.compile(r"""\bhref\s*=\s*\\?["'](?P<value>[^"'\\<>\s]{1,300})\\?["'](?!\s*\+)""", re.IGNORECASE)


def property_values(code: str) -> dict[str, list[str]]:
    """Property name → the path-like string values the script's object literals give it, in order."""
    found: dict[str, list[str]] = {}
    for match in _PROPERTY.finditer(code):
        value = literal_value(match.group("value"))
        if value is None or not _PATH_PIECE.match(value) or "${" in value:
            continue
        key = match.group("key")
        if key not in found and len(found) >= MAX_PROPERTY_NAMES:
            continue
        values = found.setdefault(key, [])
        if value not in values and len(values) < MAX_FILL_VALUES:
            values.append(value)
    return found


class ScriptValues:
    """What a script's terms can be: its language codes and its properties' values."""

    def __init__(self, code: str, codes: list[str], properties: dict[str, list[str]] | None = None):
        self.codes = codes
        self._properties = properties
        self._code = code

    @property
    def properties(self) -> dict[str, list[str]]:
        if self._properties is None:  # read only when a URL has a variable part to fill
            self._properties = property_values(self._code)
        return self._properties

    def values(self, term: str) -> list[str] | None:
        """The values a non-literal term (or a template slot's expression) can take; None when unknown."""
        term = term.strip()
        if not term.startswith("("):
            if "?" in term and ":" in term:
                term = f"({term})"  # a slot's conditional: ${lang === 'sr' ? 'sr' : 'en'}
        if term.startswith("(") and term.endswith(")"):
            parts = _TERNARY_PARTS.search(term)
            if parts and re.fullmatch(TERNARY, term):
                return [v for v in (literal_value(parts.group("a")), literal_value(parts.group("b"))) if v is not None]
            return None
        access = _PROPERTY_ACCESS.search(term)
        if access and not term.endswith(")"):
            return self.properties.get(access.group("dot") or access.group("bracket")) or None
        return None


def markup_targets(code: str) -> list[str]:
    """The ``href`` values a script writes (in markup built as a string, or assigned to an element), in
    order, without repeats; a value may hold template slots (``${item.href}``) for the caller to fill."""
    return list(dict.fromkeys(match.group("value") for match in _MARKUP_HREF.finditer(code)))
