"""Row ids from URLs, checked in one place for every view.

A path id (``<int:pk>``) is ASCII digits but may be any length: 99999999999999999999999 overflows
SQLite's and PostgreSQL's 64-bit integers and would answer 500. IdRangeMiddleware answers 404 for any
integer view argument out of range, and for an admin object id of digits out of range, before the view runs. A query id (``?crawl=ID``) is read with
``query_ids``, which keeps only ASCII digit strings in range ("²".isdigit() is true, int("²") fails).
"""
from __future__ import annotations

import re

from django.http import Http404, QueryDict

MAX_ID = 2**63 - 1  # the largest bigint on every database the project runs on
_DIGITS = re.compile(r"[0-9]{1,19}")


def parse_id(text: str) -> int | None:
    """The id ``text`` names, or None when it is not one (not ASCII digits, or out of range)."""
    if not isinstance(text, str) or not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if value <= MAX_ID else None


def query_ids(query: QueryDict, name: str) -> list[int]:
    """The valid ids among the (repeatable) query parameter ``name``, in order, without repeats."""
    ids = (parse_id(value) for value in query.getlist(name))
    return list(dict.fromkeys(i for i in ids if i is not None))


class IdRangeMiddleware:
    """404 for a URL whose integer argument no table could hold (the int converter allows any length)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        for value in (*view_args, *view_kwargs.values()):
            if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value <= MAX_ID:
                raise Http404("no such object")
        # The admin's object pages take the id as text (<path:object_id>); every model here has an
        # integer id, and a 23-digit one overflowed SQLite (OverflowError, a 500).
        object_id = view_kwargs.get("object_id")
        if isinstance(object_id, str) and object_id.isascii() and object_id.isdigit() and parse_id(object_id) is None:
            raise Http404("no such object")
        return None
