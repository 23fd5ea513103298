"""A page that says its language version is not there yet: "English version coming soon".

Serbian sites often carry an EN switch to a single English page that announces the translation
instead of holding one ("The English version of the website is currently in preparation"). Its text
is English, but it is no English page of the site: counted as one, it made the site detector call a
Serbian-only site bilingual (trservices on the real development web). Such a page is short and names
a *version* (of the site, in a language) next to a phrase of not-yet: both are required, so a small
site whose every page is under construction in both languages (petsitty.me: "The website is
currently under construction" / "Sajt je trenutno u izradi", a translated pair) is not affected.
Pure: no Django.
"""
from __future__ import annotations

import re

MAX_WORDS = 80  # menus and a sentence or two; a page with a body of its own is not a placeholder
VERSION = r"(?:version|verzij\w*|верзиј\w*)"
NOT_YET = (r"(?:coming soon|soon available|in preparation|under construction|being translated|not (?:yet )?available"
           r"|u pripremi|u izradi|uskoro|у припреми|у изради|ускоро)")
WITHIN = 80  # characters between the two
_PLACEHOLDER = re.compile(rf"\b{VERSION}\b.{{0,{WITHIN}}}?{NOT_YET}|{NOT_YET}.{{0,{WITHIN}}}?\b{VERSION}\b",
                          re.IGNORECASE | re.DOTALL)


def placeholder_phrase(text: str) -> str | None:
    """The words that make ``text`` a language version's placeholder, or None."""
    # split no further than one word past the bound: the identifier asks this of every page, most of them long
    if not text or len(text.split(None, MAX_WORDS)) > MAX_WORDS:
        return None
    found = _PLACEHOLDER.search(" ".join(text.split()))
    return found.group(0) if found else None
