"""Streaming writers of rows (dicts) as TSV, CSV and a JSON array. Pure.

Each yields one chunk a row, so a caller can hand the generator to a StreamingHttpResponse or
write it to a file without the whole table in memory."""
from __future__ import annotations

import csv
import io
import json
from typing import Iterable, Iterator, Sequence

from crawlweb.exports.text import format_score, tsv_cell


def tsv_lines(columns: Sequence[str], rows: Iterable[dict], *, header: bool = True) -> Iterator[str]:
    if header:
        yield "\t".join(columns) + "\n"
    for row in rows:
        yield "\t".join(tsv_cell(row.get(column)) for column in columns) + "\n"


def csv_lines(columns: Sequence[str], rows: Iterable[dict]) -> Iterator[str]:
    """RFC 4180 CSV (the csv module quotes cells holding commas, quotes or line breaks)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(columns)
    yield _drain(buffer)
    for row in rows:
        writer.writerow([_csv_cell(row.get(column)) for column in columns])
        yield _drain(buffer)


def json_array(rows: Iterable[dict]) -> Iterator[str]:
    """A JSON array written one element at a time (valid JSON even when empty)."""
    yield "["
    separator = "\n"
    for row in rows:
        yield separator + json.dumps(row, ensure_ascii=False, default=str)
        separator = ",\n"
    yield "\n]\n"


def _csv_cell(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, float):
        return format_score(value)
    return value


def _drain(buffer: io.StringIO) -> str:
    text = buffer.getvalue()
    buffer.seek(0)
    buffer.truncate()
    return text
