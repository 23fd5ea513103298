"""Page records as JSON Lines and as Dublin Core XML (Combine exports its records likewise).

Pure: takes plain dicts, so the same code serves the export command and any other caller.
"""
from __future__ import annotations

import json
from typing import Iterable, Iterator
from xml.sax.saxutils import escape, quoteattr

RECORD_FIELDS = ("id", "url", "final_url", "status_code", "content_type", "charset", "md5", "size",
                 "truncated", "title", "language", "script", "html_lang", "fetched_at", "modified_at", "site",
                 "text")


def json_lines(records: Iterable[dict]) -> Iterator[str]:
    for record in records:
        yield json.dumps({key: record.get(key) for key in RECORD_FIELDS}, ensure_ascii=False, default=str) + "\n"


def dublin_core_xml(records: Iterable[dict]) -> Iterator[str]:
    """A stream of <record> elements in the Dublin Core element set (dc: namespace)."""
    yield '<?xml version="1.0" encoding="UTF-8"?>\n'
    yield ('<records xmlns:dc="http://purl.org/dc/elements/1.1/" '
           'xmlns:dcterms="http://purl.org/dc/terms/">\n')
    for r in records:
        elements = [
            ("dc:identifier", r.get("final_url") or r.get("url")),
            ("dc:title", r.get("title")),
            ("dc:language", _language_tag(r)),
            ("dc:format", r.get("content_type")),
            ("dc:date", r.get("modified_at") or r.get("fetched_at")),
            ("dc:source", r.get("url") if r.get("url") != r.get("final_url") else None),
            ("dc:publisher", r.get("site")),
            ("dcterms:extent", f"{r.get('size')} bytes" if r.get("size") is not None else None),
            ("dc:description", (r.get("text") or "")[:500] or None),
        ]
        yield f"  <record id={quoteattr(str(r.get('id')))}>\n"
        for name, value in elements:
            if value not in (None, ""):
                yield f"    <{name}>{escape(str(value))}</{name}>\n"
        yield "  </record>\n"
    yield "</records>\n"


def _language_tag(record: dict) -> str | None:
    language = record.get("language")
    if not language:
        return None
    return f"{language}-{record['script']}" if record.get("script") else language
