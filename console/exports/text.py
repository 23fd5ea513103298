"""Cleaning text for the export formats. Pure.

XML 1.0 (Sec. 2.2, production [2] Char) allows only #x9, #xA, #xD, #x20–#xD7FF, #xE000–#xFFFD and
#x10000–#x10FFFF; anything else (C0 controls, lone surrogates, U+FFFE/U+FFFF) makes a TMX file
unreadable, so it is removed, never escaped. A TSV cell may hold no tab or line break: a pipeline
splitting on them (Bitextor, Bicleaner) would shift every column after it."""
from __future__ import annotations

import re

_NOT_XML_CHAR = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_CELL_BREAK = re.compile(r"[\t\r\n\u2028\u2029\x0b\x0c\x1c-\x1e\x85]+")

# Languages written in two scripts: their tag names the script (sr-Latn, sr-Cyrl, BCP 47 / RFC 5646),
# other languages keep the bare code (en), as translation tools expect.
TWO_SCRIPT_LANGUAGES = frozenset({"sr", "sh", "bs", "cnr", "uz", "az"})


def xml_safe(text: object) -> str:
    return _NOT_XML_CHAR.sub("", "" if text is None else str(text))


def tsv_cell(value: object) -> str:
    """One TSV cell: no tab or line break inside, no control character, numbers written plainly."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return format_score(value)
    return xml_safe(_CELL_BREAK.sub(" ", str(value))).strip()


def format_score(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"


def language_tag(language: str | None, script: str | None = None) -> str:
    """BCP 47 tag of a page: sr + Latn -> sr-Latn; en + Latn -> en; '' -> und."""
    base = (language or "").replace("_", "-").split("-")[0].lower()
    if not base:
        return "und"
    if script and base in TWO_SCRIPT_LANGUAGES:
        return f"{base}-{script[:1].upper()}{script[1:].lower()}"
    return base
