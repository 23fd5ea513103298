"""The South Slavic variety a site's own language switch gives the page it links to.

Pure module. A switch names the other version's language for a reader: an English page's "SRB",
"Srpski" or "Српски" link says the page behind it is Serbian, a "HRV" or "Hrvatski" link Croatian. On
a site whose text alone cannot tell ijekavian Serbian from Bosnian (a firm in Banja Luka, a
Republika Srpska body), that label is the site's own word for its variety, as an ``<html lang>``
would be. ``switch_labels`` reads a page's links to its own site and answers {URL: variety}; the
site decision (site_variety.py) counts each labelled page's variety as a declaration of that page
(source "switch").

Only explicit names count: a short anchor, image alt or title made of a language's name or code, or
an ``hreflang`` on the link. A link's address alone (/sr/, about_bs.html) is the URL marker the page
behind it already declares for itself. Words that are also common words or country codes of another
variety (me, ba, rs, us) do not count, nor "HR" (a menu's human resources page).
"""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from .declared import parse_tag

# Case-folded words that name a variety on a switch. Serbian's script switches (lat, ćir) name
# Serbian too: of the family only Serbian is commonly written in both alphabets.
LABEL_WORDS: dict[str, frozenset[str]] = {
    "sr": frozenset("""sr srb srp srpski srpskom srpska-verzija serbian serbisch serbe српски српском срп
                       sr-latn sr-cyrl latinica ćirilica cirilica ćir cir латиница ћирилица лат ћир""".split()),
    "hr": frozenset("hrv cro hrvatski hrvatskom croatian kroatisch хрватски".split()),  # "HR": human resources
    "bs": frozenset("bs bos bosanski bosanskom bosnian bosnisch босански".split()),
    "cnr": frozenset("cnr cg mne crnogorski crnogorskom montenegrin црногорски".split()),
    "mk": frozenset("mk mkd makedonski macedonian mazedonisch македонски".split()),
}
MAX_LABEL_WORDS = 3  # "Srpski", "SRB | ENG", "na srpskom": a switch; a sentence is a link, not a label
MAX_LABELS = 10  # per page: a switch has a handful of entries, a language menu of a big site a few more
_WORD = re.compile(r"[^\W_]+(?:-[^\W_]+)*", re.UNICODE)


def labelled_variety(anchor_text: str = "", img_alt: str = "", hreflang: str = "") -> str | None:
    """The one variety a link's ``hreflang``, else its label (anchor text or image alt) names, or None."""
    declared = parse_tag(hreflang)
    if declared is not None and declared.language in LABEL_WORDS:
        return declared.language
    named = set()
    for text in (anchor_text, img_alt):
        words = _WORD.findall((text or "").casefold())
        if not words or len(words) > MAX_LABEL_WORDS:
            continue
        for variety, vocabulary in LABEL_WORDS.items():
            if any(word in vocabulary for word in words):
                named.add(variety)
    return named.pop() if len(named) == 1 else None


def switch_labels(links: Iterable[tuple[str, str, str, str]]) -> dict[str, str]:
    """{URL: variety} for a page's links to its own site, each (url, anchor text, image alt, hreflang).
    A URL its links label with two varieties is left out; at most MAX_LABELS URLs."""
    found: dict[str, str | None] = {}
    for url, anchor_text, img_alt, hreflang in links:
        variety = labelled_variety(anchor_text, img_alt, hreflang)
        if variety is None:
            continue
        if url in found and found[url] != variety:
            found[url] = None  # two labels for one page: neither is its word
        elif url not in found and len(found) < MAX_LABELS:
            found[url] = variety
    return {url: variety for url, variety in found.items() if variety}


def declare_switch_labels(observations: dict[str, dict], keys: dict[str, str], page_labels: list[dict]) -> None:
    """Give each page the variety its site's switches label it with (switch_labels) as its
    declaration of source "switch"; a page labelled with two varieties gets none. The observations
    are replaced, not changed in place."""
    said: dict[str, set[str]] = defaultdict(set)
    for found in page_labels:
        for url, variety in found.items():
            if url in keys:
                said[keys[url]].add(variety)
    for key, varieties in said.items():
        if len(varieties) == 1 and key in observations:
            observation = observations[key]
            observations[key] = {**observation, "declared": {**(observation.get("declared") or {}),
                                                             "switch": varieties.pop()}}
