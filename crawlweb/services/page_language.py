"""Language of a fetched page, through the project's language identifier.

Until the identifier lands (Frontier Layers issue) this returns empty values: the field stays
empty rather than being filled by a stand-in.
"""
from __future__ import annotations

try:
    from crawlweb.language.identify import identify_language
except ImportError:  # the identifier is not part of this build yet
    identify_language = None


def identify_page_language(parsed, url: str) -> tuple[str, str]:
    """(language code, script) of a parsed page; ("", "") when no identifier is available."""
    if identify_language is None:
        return "", ""
    guess = identify_language(parsed.text or "", url=url, html_lang=parsed.lang, title=parsed.title)
    return (guess.lang or "")[:16], (guess.script or "")[:8]
