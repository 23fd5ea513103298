"""TMX 1.4 (Translation Memory eXchange, LISA OSCAR 1.4b) written as a stream. Pure.

Structure (TMX 1.4b, Sec. 3): ``<tmx version="1.4">`` holds one ``<header>`` with the required
attributes creationtool, creationtoolversion, segtype, o-tmf, adminlang, srclang and datatype, then
``<body>`` with one ``<tu>`` per translation unit. A ``<tu>`` holds its ``<prop>``s before its
``<tuv>``s; each ``<tuv>`` carries ``xml:lang`` and one ``<seg>``. User-defined prop types start
with "x-" as the standard asks. Text is XML-escaped after removing characters XML forbids."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Iterable, Iterator
from xml.sax.saxutils import escape, quoteattr

from console.exports.text import xml_safe

TMX_VERSION = "1.4"
CREATION_TOOL = "crawlweb bilingual crawler"
CREATION_TOOL_VERSION = "1"
_ATTRIBUTE_ENTITIES = {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}


@dataclass
class TranslationUnit:
    source_lang: str
    target_lang: str
    source_text: str
    target_text: str
    props: list[tuple[str, str]] = field(default_factory=list)  # (type, value), written in order


def tmx_document(units: Iterable[TranslationUnit], *, srclang: str, segtype: str = "paragraph",
                 header_props: Iterable[tuple[str, str]] = (), created: datetime | None = None) -> Iterator[str]:
    created = created or datetime.now(timezone.utc)
    yield '<?xml version="1.0" encoding="UTF-8"?>\n'
    yield f'<tmx version="{TMX_VERSION}">\n'
    header = {"creationtool": CREATION_TOOL, "creationtoolversion": CREATION_TOOL_VERSION, "segtype": segtype,
              "o-tmf": "crawlweb", "adminlang": "en", "srclang": srclang, "datatype": "plaintext",
              "creationdate": created.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")}
    yield "  <header " + " ".join(f"{name}={_attr(value)}" for name, value in header.items()) + ">\n"
    for kind, value in header_props:
        yield f"    {_prop(kind, value)}\n"
    yield "  </header>\n  <body>\n"
    for number, unit in enumerate(units, start=1):
        yield _unit(number, unit)
    yield "  </body>\n</tmx>\n"


def _unit(number: int, unit: TranslationUnit) -> str:
    lines = [f'    <tu tuid="{number}" srclang={_attr(unit.source_lang)}>']
    lines += [f"      {_prop(kind, value)}" for kind, value in unit.props]
    for lang, text in ((unit.source_lang, unit.source_text), (unit.target_lang, unit.target_text)):
        lines.append(f"      <tuv xml:lang={_attr(lang)}><seg>{escape(xml_safe(text))}</seg></tuv>")
    lines.append("    </tu>\n")
    return "\n".join(lines)


def _prop(kind: str, value: object) -> str:
    return f"<prop type={_attr(kind)}>{escape(xml_safe(value))}</prop>"


def _attr(value: object) -> str:
    return quoteattr(xml_safe(value), _ATTRIBUTE_ENTITIES)
