"""The planner's statistics kept up with a growing crawl, where autovacuum does not (PostgreSQL only).

PostgreSQL plans each statement from the rows ANALYZE last sampled. A crawl's tables grow from
nothing to millions of rows; autovacuum re-analyzes a table after a tenth of it changed, but a server
may run with autovacuum off (this project's CI machine does) or far behind. Then every table looks as
it did when it was empty: `crawl_id = 1` seemed to match 0.5 % of the pages (all of them did), and
scoring's look-ups read every Target of the crawl, 15–30 ms each instead of under one. A crawl step
asks here when its crawl's page count crossed a power of two from 1,024 pages on (log₂ N times in a
crawl of N pages; a small crawl, a test's, never): one statement reads which tables grew by a fifth
since their last ANALYZE, and those are analyzed (a sample of 30,000 rows each, without blocking writers).
"""
from __future__ import annotations

import logging

from django.db import DatabaseError, connection

log = logging.getLogger(__name__)

FIRST_CHECK_PAGES = 1024
STALE_SHARE = 0.2  # a table is analyzed again when rows changed since its last ANALYZE exceed this share
STALE_MIN_ROWS = 1000  # ... and at least this many (a small table's plans hardly depend on its statistics)


def due(pages_before: int, pages_after: int) -> bool:
    """Whether a step that took its crawl from ``pages_before`` to ``pages_after`` pages crossed a power
    of two of at least FIRST_CHECK_PAGES."""
    return pages_after >= FIRST_CHECK_PAGES and pages_after.bit_length() > max(pages_before, 0).bit_length()


def stale_tables() -> list[str]:
    """The tables of this database whose statistics are a fifth or more behind their rows."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname FROM pg_stat_user_tables WHERE schemaname = 'public'"
            " AND n_mod_since_analyze >= GREATEST(%s, %s * n_live_tup) ORDER BY relname",
            [STALE_MIN_ROWS, STALE_SHARE])
        return [name for (name,) in cursor.fetchall()]


def refresh_stale_statistics() -> list[str]:
    """ANALYZE the stale tables (PostgreSQL); returns their names. A failure is logged, never raised:
    the crawl goes on with older plans."""
    if connection.vendor != "postgresql":
        return []
    try:
        tables = stale_tables()
        if tables:
            with connection.cursor() as cursor:  # SKIP_LOCKED: a table another worker analyzes is left to it
                cursor.execute("ANALYZE (SKIP_LOCKED) " + ", ".join(connection.ops.quote_name(t) for t in tables))
        return tables
    except DatabaseError:
        log.exception("refreshing the planner's statistics failed; the crawl goes on")
        return []
