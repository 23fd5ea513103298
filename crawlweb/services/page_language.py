"""Language of a fetched page, through the project's language identifier."""
from __future__ import annotations

from crawlweb.language.identify import identify_language


def identify_page_language(parsed, url: str) -> tuple[str, str]:
    """(language code, script) of a parsed page; the code is "und" when the text says too little."""
    guess = identify_language(parsed.text or "", url=url, html_lang=parsed.lang, title=parsed.title)
    return (guess.lang or "")[:16], (guess.script or "")[:8]
