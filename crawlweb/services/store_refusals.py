"""Why storing a batch failed: for what one item's rows hold, or for the state of the database.

A value the database refuses (a NUL character in text, a number beyond its column, a value too long for
an index, a CHECK constraint or trigger, a string with lone surrogates that no driver can encode) is the
item's fault: storing.py then stores the batch item by item and fails only the refused item's Target,
with the reason. A connection lost, a deadlock, a lock held too long, a full disk or a missing table are
the database's state: every item would fail the same way, so the step fails as a whole, as before, and
crawl_step retries it or pauses the crawl.
"""
from __future__ import annotations

from django.db import DatabaseError, DataError, IntegrityError

# PostgreSQL's SQLSTATE classes of errors about the values of a row: data exception (22), integrity
# constraint violation (23), program limit exceeded (54: an index row or a value beyond a hard limit).
ROW_SQLSTATE_CLASSES = ("22", "23", "54")


def refused_for_its_values(error: BaseException) -> bool:
    """Whether ``error``, raised while one transaction stored some items, can be the fault of one item's values."""
    if isinstance(error, (DataError, IntegrityError)):
        return True
    if isinstance(error, DatabaseError):
        sqlstate = getattr(error.__cause__, "sqlstate", None) or ""
        return sqlstate[:2] in ROW_SQLSTATE_CLASSES
    # Errors raised in Python before a statement reached the database: converting a value (surrogates a
    # driver cannot encode, an integer too large for SQLite) or computing one item's rows. Not the
    # machine's troubles: a full disk or a failing file system (OSError), memory running out.
    return isinstance(error, Exception) and not isinstance(error, (OSError, MemoryError))
