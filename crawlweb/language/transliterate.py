"""Serbian Cyrillic <-> Latin (gajica) transliteration.

Pure module. The mapping is the official one-to-one letter correspondence of the Serbian
standard (Pravopis srpskoga jezika): 30 Cyrillic letters, 27 Latin letters plus the three
digraphs lj, nj, dž. It lets the crawler treat a Cyrillic page and its Latin copy as two
script variants of one text.

Latin -> Cyrillic is ambiguous only for digraphs written across a morpheme boundary
(nadživeti = над-живети, not наџивети; konjunkcija = кон-јункција). Those words are rare:
the prefixes nad-, pod-, pred- before ž and a short list of n+j words are kept apart, so the
round trip of ordinary sentences is exact. ("od" + ž is left as џ: odžak, Odžaci.)
"""
from __future__ import annotations

import re
import unicodedata

_CYR_TO_LAT = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "ђ": "đ", "е": "e", "ж": "ž",
    "з": "z", "и": "i", "ј": "j", "к": "k", "л": "l", "љ": "lj", "м": "m", "н": "n",
    "њ": "nj", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t", "ћ": "ć", "у": "u",
    "ф": "f", "х": "h", "ц": "c", "ч": "č", "џ": "dž", "ш": "š",
}
# Upper case: a digraph letter becomes "Lj" before lower case and "LJ" inside an
# all-caps word (ЉУБАВ -> LJUBAV, Љубав -> Ljubav); decided per occurrence below.
_CYR_UPPER = {k.upper(): v.capitalize() for k, v in _CYR_TO_LAT.items()}

_LAT_TO_CYR = {v: k for k, v in _CYR_TO_LAT.items()}
_LAT_DIGRAPHS = ("lj", "nj", "dž")
# Morpheme boundaries where "dž"/"nj" are two letters, not one (prefix + root).
_SPLIT_DIGRAPH = re.compile(r"\b(nad|pod|pred)(ž)", re.IGNORECASE)
_DIGRAPH_EXCEPTIONS = {
    # words where n+j is kept apart although a vowel follows
    "konjunkcija", "konjugacija", "injekcija", "konjunktura", "vanjezički",
}


_TO_LATIN_TABLE = str.maketrans({**_CYR_TO_LAT, **_CYR_UPPER})
_UPPER_DIGRAPH = re.compile(r"Lj|Nj|Dž")


def cyrillic_to_latin(text: str) -> str:
    """Serbian Cyrillic -> Latin; any other character is kept as is."""
    text = unicodedata.normalize("NFC", text)
    out = text.translate(_TO_LATIN_TABLE)
    if any(c in text for c in "ЉЊЏ"):
        out = _UPPER_DIGRAPH.sub(_digraph_case, out)
    return out


def _digraph_case(match: re.Match) -> str:
    """An upper-case digraph letter inside an all-caps word is written LJ/NJ/DŽ: decided by
    the next letter, or at a word end by the previous one (ЉУБАВ -> LJUBAV, Љубав -> Ljubav)."""
    s, i, j = match.string, match.start(), match.end()
    nxt = s[j] if j < len(s) else ""
    if nxt.isalpha():
        upper = nxt.isupper()
    else:
        prev = s[i - 1] if i > 0 else ""
        # after another digraph ("ЊЉ" -> "NjLj") look at that digraph's first letter
        if prev in "jž" and i >= 2 and s[i - 2:i] in ("Lj", "Nj", "Dž", "LJ", "NJ", "DŽ"):
            prev = s[i - 2]
        upper = prev.isalpha() and prev.isupper()
    return match.group().upper() if upper else match.group()


def latin_to_cyrillic(text: str) -> str:
    """Serbian Latin -> Cyrillic. Digraphs lj, nj, dž become љ, њ, џ except across
    the prefix boundaries listed above; foreign letters (q, w, x, y) are kept."""
    text = unicodedata.normalize("NFC", text)
    keep_apart = _boundary_positions(text)
    out = []
    i = 0
    while i < len(text):
        pair = text[i:i + 2]
        if len(pair) == 2 and pair.lower() in _LAT_DIGRAPHS and i not in keep_apart:
            cyr = _LAT_TO_CYR[pair.lower()]
            out.append(cyr.upper() if pair[0].isupper() else cyr)
            i += 2
            continue
        ch = text[i]
        cyr = _LAT_TO_CYR.get(ch.lower())
        if cyr is None:
            out.append(ch)
        else:
            out.append(cyr.upper() if ch.isupper() else cyr)
        i += 1
    return "".join(out)


def _boundary_positions(text: str) -> set[int]:
    """Start positions of letter pairs that must stay two letters."""
    positions = set()
    for m in _SPLIT_DIGRAPH.finditer(text):
        positions.add(m.start(2) - 1)  # the d of "nad|ž"
    for word in re.finditer(r"\w+", text):
        if word.group().lower() in _DIGRAPH_EXCEPTIONS:
            low = word.group().lower()
            for k in range(len(low) - 1):
                if low[k:k + 2] == "nj":
                    positions.add(word.start() + k)
    return positions
