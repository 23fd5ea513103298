"""Placement's priority updates and a lease batch lock a host's rows in one order (PostgreSQL)."""
import threading
import time

import pytest
from django.db import connection, transaction

from crawlweb.models import HostQueue
from frontier.models import Target
from frontier.placement import place_targets
from tests.frontier_integration.helpers import crawl_with_targets
from tests.integration.helpers import join_workers, start_workers


def _backends_waiting_for_a_lock() -> int:
    with connection.cursor() as cursor:
        # pg_locks, not pg_stat_activity: the latter is read once per transaction.
        cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted AND pid <> pg_backend_pid()")
        return cursor.fetchone()[0]


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_priority_update_waits_for_a_lease_batch_without_holding_its_targets():
    """A lease batch holds its hosts' rows, then updates their Targets; placement re-prioritising
    those Targets meanwhile must wait before it locks a Target, or the batch waits for it in turn
    (a deadlock: one of the two jobs failed, as a test crawl with modules showed)."""
    crawl, ids = crawl_with_targets(["http://www.primer.rs/sr/usluge.html", "http://www.primer.rs/de/dienste.html"])
    assert HostQueue.objects.filter(crawl=crawl).exists()  # made by the Targets' trigger
    holding, outcome = threading.Event(), {}

    def lease_batch():
        try:
            with transaction.atomic():
                list(HostQueue.objects.select_for_update().filter(crawl=crawl))  # as the lease walk does
                holding.set()
                deadline = time.monotonic() + 20
                while not _backends_waiting_for_a_lock() and time.monotonic() < deadline:
                    time.sleep(0.02)  # placement is now waiting, holding whatever it took before
                with connection.cursor() as cursor:
                    # Waiting for placement's Target locks ends here, before the deadlock detector
                    # (deadlock_timeout 1 s) could end placement's wait instead and hide it.
                    cursor.execute("SET LOCAL lock_timeout = '500ms'")
                Target.objects.filter(pk__in=ids).update(state=Target.State.LEASED, lease_owner="batch")
            outcome["lease"] = "committed"
        except Exception as error:  # noqa: BLE001 - the outcome is what the test reads
            outcome["lease"] = f"failed: {error}"
        finally:
            holding.set()

    def placement():
        holding.wait(20)
        outcome["placed"] = place_targets(crawl.pk, ids).targets

    join_workers(start_workers(lease_batch, placement))
    assert outcome == {"lease": "committed", "placed": 2}
    leased = Target.objects.filter(pk__in=ids)
    assert set(leased.values_list("state", flat=True)) == {Target.State.LEASED}
    sr = leased.get(url="http://www.primer.rs/sr/usluge.html")
    assert sr.priority > leased.get(url="http://www.primer.rs/de/dienste.html").priority  # placed after the lease
