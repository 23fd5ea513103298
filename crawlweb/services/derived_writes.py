"""Writes of rows that are derived from stored pages, committed without waiting for the disk.

Inside ``derived_writes()`` a scoring job writes only what it can compute again from the crawl's
pages: settled page labels, URL patterns, credibility rows, candidate pairs, deep-page guesses and site
verdicts (its claims are released before it, synchronously). The BS Detector stores its sites' settled
page labels so too (frontier/detector_job.py). On PostgreSQL each of its commits (about
twenty a job of 37 sites: one per site's patterns, one per site's pairs, and each bulk write) waited for
the write-ahead log to reach the disk: 4 % of a job's time on an idle machine (docs/scale.md, ninth
session), more when the disk is busy. ``synchronous_commit = off`` for the job's session lets a commit return
once it is in the log buffer: a crash can lose the last ~0.6 s of such commits (3 × wal_writer_delay),
never leave a row half written (the log is still written in order), and what it loses is scored again:
a site's next page claims its scoring, and the crawl-wide pass after the crawl scores every site. The
crawl's own writes (pages, Targets, leases, claims) keep synchronous commits: a lost page would be
fetched twice and its WARC record orphaned.
"""
from __future__ import annotations

import contextlib
import logging

from django.db import DatabaseError, connection

log = logging.getLogger(__name__)


@contextlib.contextmanager
def derived_writes():
    """Commits inside return without waiting for the disk (PostgreSQL; elsewhere nothing changes)."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SET synchronous_commit TO OFF")
    try:
        yield
    finally:
        try:
            with connection.cursor() as cursor:
                cursor.execute("RESET synchronous_commit")
        except DatabaseError as error:  # a broken connection: Django opens the next one with the default
            log.warning("could not reset synchronous_commit: %s", error)
