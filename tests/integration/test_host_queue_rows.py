"""The HostQueue rows leasing reads follow every writer of Targets (the database's triggers), and
the triggers come back after a migration rebuilt a table (SQLite drops them then)."""
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from crawlweb.models import Crawl, Host
from crawlweb.services.hosts import host_for
from crawlweb.services.leasing import hand_back_leases, lease_batch
from frontier.host_queue_triggers import drop_triggers, ensure_triggers, existing_triggers
from frontier.models import HostQueue, Target
from crawlweb.models.host_queues import NEVER_SERVED

pytestmark = pytest.mark.django_db


def target(crawl: Crawl, path: str, **fields) -> Target:
    host = host_for("www.primer.rs")
    return Target.objects.create(crawl=crawl, url=f"http://www.primer.rs/{path}", host=host, site=host.site, **fields)


def row(crawl: Crawl, queue: str = "forward") -> HostQueue | None:
    return HostQueue.objects.filter(crawl=crawl, queue=queue).first()


def test_a_target_saved_by_any_means_raises_its_hosts_row_and_never_lowers_it():
    crawl = Crawl.objects.create(name="rows", page_budget=10)
    first = target(crawl, "a.html", priority=0.3)
    assert (row(crawl).best_priority, row(crawl).wake_at, row(crawl).served_at) == (0.3, None, NEVER_SERVED)
    target(crawl, "b.html", priority=0.7)
    assert row(crawl).best_priority == 0.7
    Target.objects.filter(pk=first.pk).update(priority=0.9)
    assert row(crawl).best_priority == 0.9
    Target.objects.filter(pk=first.pk).update(priority=0.1)
    assert row(crawl).best_priority == 0.9, "lowering is leasing's part: the row stays an upper bound"
    target(crawl, "back.html", priority=0.2, origin=Target.Origin.BACKLINK)
    assert row(crawl, "backlink").best_priority == 0.2
    target(crawl, "done.html", priority=5.0, state=Target.State.DONE)
    assert row(crawl).best_priority == 0.9, "only pending Targets count"


def test_a_postponed_target_sets_when_its_row_wakes_and_a_lease_handed_back_comes_back():
    crawl = Crawl.objects.create(name="rows", page_budget=10)
    due = timezone.now() + timedelta(minutes=5)
    target(crawl, "retry.html", priority=0.8, due_at=due)
    assert (row(crawl).best_priority, row(crawl).wake_at) == (None, due)
    later = target(crawl, "next.html", priority=0.4)
    [lease] = lease_batch(crawl, "w1", 10, 60)
    assert lease.target.pk == later.pk
    assert (row(crawl).best_priority, row(crawl).wake_at) == (None, due), "lowered by the lease, still waking"
    assert row(crawl).served_at == Host.objects.get(name="www.primer.rs").last_served_at
    hand_back_leases(crawl, "w1", lambda host: 0.0)
    assert row(crawl).best_priority == 0.4


def test_a_host_with_no_pending_target_left_keeps_an_empty_row_a_new_target_fills():
    crawl = Crawl.objects.create(name="rows", page_budget=10)
    target(crawl, "a.html", priority=0.5)
    lease_batch(crawl, "w1", 10, 60)
    assert (row(crawl).best_priority, row(crawl).wake_at) == (None, None)
    target(crawl, "b.html", priority=0.1)
    assert row(crawl).best_priority == 0.1


def test_triggers_a_rebuilt_table_lost_are_made_again():
    drop_triggers(connection)
    assert existing_triggers(connection) == set()
    assert len(ensure_triggers(connection)) == 3, "a Target inserted, a Target updated, a host updated"
    assert ensure_triggers(connection) == [], "the ones there are left alone"
    crawl = Crawl.objects.create(name="rows", page_budget=10)
    target(crawl, "a.html", priority=0.5)
    assert row(crawl).best_priority == 0.5
