"""Scoring jobs commit their derived rows without waiting for the disk, and leave the worker's
database session as they found it: the crawl steps the same worker runs next keep synchronous commits."""
import pytest
from django.db import connection

from crawlweb.services.derived_writes import derived_writes

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _setting() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        return cursor.fetchone()[0]


def test_commits_inside_do_not_wait_for_the_disk_and_the_session_is_restored_after():
    assert connection.vendor == "postgresql", "this test runs on PostgreSQL (DATABASE_URL)"
    assert _setting() == "on"
    with derived_writes():
        assert _setting() == "off"
    assert _setting() == "on"


def test_a_failing_job_restores_the_session_too():
    with pytest.raises(ZeroDivisionError):
        with derived_writes():
            1 / 0
    assert _setting() == "on"
