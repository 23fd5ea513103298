"""The planner's statistics follow a growing crawl even where autovacuum is off or behind."""
from __future__ import annotations

import pytest
from django.db import connection

from crawlweb.models import Site
from crawlweb.services import table_statistics

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _planner_rows(table: str) -> float:
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [table])
        return cursor.fetchone()[0]


def _fresh_statistics_view() -> None:
    """What this connection wrote counted in the statistics views now (a backend reports its counts
    at most once a second, PostgreSQL 15), and those views read again (else cached per transaction)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute("SELECT pg_stat_clear_snapshot()")


def test_a_grown_table_is_analyzed_and_the_planner_then_knows_its_size():
    Site.objects.bulk_create([Site(name=f"site{i}.rs") for i in range(3000)])
    _fresh_statistics_view()
    assert "crawlweb_site" in table_statistics.stale_tables()

    analyzed = table_statistics.refresh_stale_statistics(now=10**9)

    assert "crawlweb_site" in analyzed
    assert _planner_rows("crawlweb_site") == pytest.approx(3000, rel=0.05)
    _fresh_statistics_view()
    assert "crawlweb_site" not in table_statistics.stale_tables()


def test_the_check_runs_at_most_once_a_minute_per_process():
    table_statistics.refresh_stale_statistics(now=2 * 10**9)
    Site.objects.bulk_create([Site(name=f"later{i}.rs") for i in range(3000)])
    _fresh_statistics_view()

    assert table_statistics.refresh_stale_statistics(now=2 * 10**9 + 30) == []
    assert "crawlweb_site" in table_statistics.refresh_stale_statistics(now=2 * 10**9 + 61)
