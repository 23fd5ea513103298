"""Language of a fetched page, through the project's language identifier."""
from __future__ import annotations

from typing import NamedTuple

from crawlweb.language.declared import parsed_page_declarations
from crawlweb.language.main_body import identify_page_text
from crawlweb.language.site_variety import page_observation


class PageLanguage(NamedTuple):
    language: str       # a code, or "und" when the text says too little
    script: str         # "Latn", "Cyrl", ... or ""
    observation: dict   # what the site-level decision reads (site_variety.page_observation)


def identify_page_language(parsed, url: str) -> PageLanguage:
    """Language of a parsed page from its main text (else its whole text: main_body.py) and what it
    declares (html lang, og:locale, its own hreflang, the URL's marker): declared.py and priors.py
    say how much each weighs."""
    declarations = parsed_page_declarations(parsed, url)
    text = parsed.text or ""
    # Over an empty body (a splash page, a script redirect) the title is the site's name, not text
    # in a language: "NEXORY — System Entry" on a Serbian firm's gateway made it an English page.
    title = parsed.title if text.strip() else None
    guess = identify_page_text(text, getattr(parsed, "main_text", ""), url=url, title=title,
                               declarations=declarations, body_text=getattr(parsed, "body_text", ""))
    return PageLanguage((guess.lang or "")[:16], (guess.script or "")[:8], page_observation(guess, declarations))
