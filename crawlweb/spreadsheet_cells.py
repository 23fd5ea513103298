"""Cells of CSV and TSV files that people open in spreadsheets. Pure: no Django imports.

A spreadsheet runs a cell that starts with =, +, - or @ as a formula (a tab or carriage return first
too, in some): a crawled `=HYPERLINK("http://evil.example/x", …)` in an export would become a live
link, or worse. OWASP's advice on CSV injection is followed: such a cell gets a leading single quote,
which spreadsheets show as text. Numbers are written by us, never neutralized (-0.5 stays a number).
Pipelines that want the text as stored ask for the raw export (?raw=1, --raw).
"""
from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralized(value: object) -> object:
    """``value`` with a leading single quote when it is text a spreadsheet would run as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def neutralized_row(row: dict) -> dict:
    return {key: neutralized(value) for key, value in row.items()}
