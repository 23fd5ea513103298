"""The planner's statistics follow a growing crawl even where autovacuum is off or behind."""
from __future__ import annotations

import pytest
from django.db import connection

from crawlweb.models import Site
from crawlweb.services import table_statistics


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


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_grown_table_is_analyzed_and_the_planner_then_knows_its_size():
    Site.objects.bulk_create([Site(name=f"site{i}.rs") for i in range(3000)])
    _fresh_statistics_view()
    assert "crawlweb_site" in table_statistics.stale_tables()

    analyzed = table_statistics.refresh_stale_statistics()

    assert "crawlweb_site" in analyzed
    assert _planner_rows("crawlweb_site") == pytest.approx(3000, rel=0.05)
    _fresh_statistics_view()
    assert "crawlweb_site" not in table_statistics.stale_tables()


@pytest.mark.parametrize("before, after, expected", [
    (1000, 1030, True),     # past 1,024
    (1030, 2000, False),    # no power of two crossed
    (2000, 2100, True),     # past 2,048
    (0, 900, False),        # a small crawl (a test's) never
    (500, 700, False),      # past 512, under the first check
    (0, 70_000, True),      # one big step
])
def test_checked_when_the_crawl_passes_a_power_of_two_from_1024_pages(before, after, expected):
    assert table_statistics.due(before, after) is expected
