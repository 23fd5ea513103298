"""Checks the test-web tests share: find a site in the truth, read a page's text and language."""
from __future__ import annotations

import re

from bs4 import BeautifulSoup

from crawlweb.testweb.text_source import parallel_entries

_CYRILLIC = re.compile(r"[\u0400-\u04FF]")
_LETTERS = re.compile(r"[^\W\d_]")


def site_of(truth, kind, **attrs):
    """The first generated site of a kind whose truth has the given attribute values."""
    for site in truth["sites"]:
        if site["kind"] == kind and all(site.get(k) == v for k, v in attrs.items()):
            return site
    raise LookupError(f"no {kind} site with {attrs} in the test web")


def main_text(html_bytes: bytes) -> str:
    soup = BeautifulSoup(html_bytes, "lxml")
    main = soup.find("main") or soup.body
    return " ".join(p.get_text(" ", strip=True) for p in main.find_all("p"))


def cyrillic_share(text: str) -> float:
    letters = _LETTERS.findall(text)
    return len(_CYRILLIC.findall(text)) / max(1, len(letters))


def catalog_hits(text: str, language: str) -> set[str]:
    """English keys of the catalog entries (of 20+ characters) whose `language` text is in `text`.

    A phrase found only inside a longer found phrase is dropped: it is part of that sentence,
    not a sentence of the page."""
    lowered = text.lower()
    found: dict[str, set[str]] = {}
    for entry in parallel_entries():
        phrase = entry.text(language).lower().rstrip(".")
        if len(phrase) >= 8 and phrase in lowered:
            found.setdefault(phrase, set()).add(entry.en)
    return {key for phrase, keys in found.items()
            if not any(phrase != other and phrase in other for other in found)
            for key in keys if len(key) >= 20}
