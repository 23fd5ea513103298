"""Streaming writers of rows (dicts) as TSV, CSV and a JSON array. Pure.

Each yields one chunk a row, so a caller can hand the generator to a StreamingHttpResponse or
write it to a file without the whole table in memory. Text cells a spreadsheet would run as formulas
are neutralized (crawlweb.spreadsheet_cells) unless ``raw`` is asked for."""
from __future__ import annotations

import csv
import io
import json
from typing import Iterable, Iterator, Sequence

from console.exports.text import format_score, tsv_cell
from crawlweb.spreadsheet_cells import neutralized


def tsv_lines(columns: Sequence[str], rows: Iterable[dict], *, header: bool = True,
              raw: bool = False) -> Iterator[str]:
    if header:
        yield "\t".join(columns) + "\n"
    for row in rows:
        yield "\t".join(_tsv_cell(row.get(column), raw) for column in columns) + "\n"


def csv_lines(columns: Sequence[str], rows: Iterable[dict], *, raw: bool = False) -> Iterator[str]:
    """RFC 4180 CSV (the csv module quotes cells holding commas, quotes or line breaks)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(columns)
    yield _drain(buffer)
    for row in rows:
        writer.writerow([_csv_cell(row.get(column), raw) for column in columns])
        yield _drain(buffer)


def json_array(rows: Iterable[dict]) -> Iterator[str]:
    """A JSON array written one element at a time (valid JSON even when empty)."""
    yield "["
    separator = "\n"
    for row in rows:
        yield separator + json.dumps(row, ensure_ascii=False, default=str)
        separator = ",\n"
    yield "\n]\n"


def _tsv_cell(value: object, raw: bool) -> str:
    cell = tsv_cell(value)
    return cell if raw or not isinstance(value, str) else neutralized(cell)  # text only: numbers stay numbers


def _csv_cell(value: object, raw: bool) -> object:
    if value is None:
        return ""
    if isinstance(value, float):
        return format_score(value)
    return value if raw else neutralized(value)


def _drain(buffer: io.StringIO) -> str:
    text = buffer.getvalue()
    buffer.seek(0)
    buffer.truncate()
    return text
