"""Which hosts a lease batch takes, read from the crawl's HostQueue rows: best Target first, then
least recently served; hosts busy or waiting for their politeness clock passed over; postponed
Targets wait for their time; a batch fills from further down when the rows at the top are above
their Targets; and its cost does not grow with the frontier."""
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from crawlweb.models import Crawl, Host
from crawlweb.services.leasing import claim_hosts_now, lease_batch, next_lease_in, release_hosts
from crawlweb.services.targets import Candidate, add_targets
from frontier.models import HostQueue, Target

pytestmark = pytest.mark.django_db


def crawl_with(priorities: dict[str, list[float]], origin: str = "forward", crawl: Crawl | None = None) -> Crawl:
    """Targets http://www.<name>.rs/p<i>.html with the given priorities, per host name."""
    crawl = crawl or Crawl.objects.create(name="order", page_budget=1000)
    add_targets(crawl, [Candidate(f"http://www.{name}.rs/{origin}{i}.html", priority=p)
                        for name, ps in priorities.items() for i, p in enumerate(ps)], origin=origin)
    return crawl


def host(name: str) -> Host:
    return Host.objects.get(name=f"www.{name}.rs")


def leased(crawl: Crawl, limit: int) -> list[tuple[str, float]]:
    """(host name without www. and .rs, Target priority) of one batch, in lease order."""
    return [(lease.host.name[4:-3], lease.target.priority) for lease in lease_batch(crawl, "w1", limit, 60)]


def free_all() -> None:
    Host.objects.update(busy_until=None, next_fetch_at=None)


def test_hosts_go_by_their_best_target_then_least_recently_served():
    crawl = crawl_with({"a": [0.2, 0.9], "b": [0.5], "c": [0.5, 0.1], "d": [0.5], "e": [0.3]})
    now = timezone.now()
    Host.objects.filter(name="www.b.rs").update(last_served_at=now - timedelta(minutes=10))
    Host.objects.filter(name="www.d.rs").update(last_served_at=now - timedelta(minutes=5))
    # a has the best Target; among the 0.5 hosts, c was never served, b longest ago, then d
    assert leased(crawl, 4) == [("a", 0.9), ("c", 0.5), ("b", 0.5), ("d", 0.5)]
    free_all()
    # then the hosts' next Targets, best first
    assert leased(crawl, 10) == [("e", 0.3), ("a", 0.2), ("c", 0.1)]
    free_all()
    assert leased(crawl, 10) == []


def test_a_host_served_outside_a_crawl_step_goes_behind_its_equals():
    """A detector's fetch or a deep-page check claims a host too (claim_hosts_now): it counts as served."""
    crawl = crawl_with({"a": [0.5], "b": [0.5]})
    assert claim_hosts_now([host("a").pk]) == {host("a").pk: 0.0}
    release_hosts([(host("a").pk, 0.0, None)])
    assert leased(crawl, 1) == [("b", 0.5)]


def test_many_hosts_claimed_at_once_take_only_the_free_ones_and_say_how_long_the_others_are_held():
    """A deep-check round claims its hosts in one statement: a host another worker holds, or whose
    politeness clock runs, is not claimed, and the wait comes back; a claimed host is busy for others."""
    crawl_with({"free": [0.5], "held": [0.5], "clock": [0.5]})
    now = timezone.now()
    Host.objects.filter(name="www.held.rs").update(busy_until=now + timedelta(seconds=90))
    Host.objects.filter(name="www.clock.rs").update(next_fetch_at=now + timedelta(seconds=30))
    waits = claim_hosts_now([host("free").pk, host("held").pk, host("clock").pk])
    assert waits[host("free").pk] == 0.0
    assert 80 < waits[host("held").pk] <= 90 and 20 < waits[host("clock").pk] <= 30
    assert host("free").busy_until is not None, "claimed: busy until released"
    assert claim_hosts_now([host("free").pk])[host("free").pk] > 0, "a second claim waits for the release"
    release_hosts([(host("free").pk, 0.0, None)])
    assert claim_hosts_now([host("free").pk]) == {host("free").pk: 0.0}


def test_hosts_busy_or_waiting_for_their_clock_are_passed_over():
    crawl = crawl_with({f"h{i:02d}": [1.0 - i / 100] for i in range(40)})
    later = timezone.now() + timedelta(minutes=5)
    waiting = [f"www.h{i:02d}.rs" for i in range(0, 30, 2)]
    busy = [f"www.h{i:02d}.rs" for i in range(1, 30, 2)]
    Host.objects.filter(name__in=waiting).update(next_fetch_at=later)
    Host.objects.filter(name__in=busy).update(busy_until=later)
    assert [name for name, _ in leased(crawl, 6)] == [f"h{i}" for i in range(30, 36)]
    Host.objects.filter(name__in=waiting).update(next_fetch_at=None)
    assert [name for name, _ in leased(crawl, 6)] == [f"h{i:02d}" for i in range(0, 12, 2)]


def test_hosts_waiting_for_their_clocks_leave_the_order_until_their_clocks_run_out():
    """The hosts at the top, just served, wait for their clocks: one batch reads them and puts
    them aside, the next ones do not read them again; a clock set back brings its host back."""
    crawl = crawl_with({f"h{i:02d}": [1.0 - i / 100] for i in range(40)})
    later = timezone.now() + timedelta(minutes=5)
    waiting = [f"www.h{i:02d}.rs" for i in range(30)]
    Host.objects.filter(name__in=waiting).update(next_fetch_at=later)
    assert [name for name, _ in leased(crawl, 4)] == ["h30", "h31", "h32", "h33"]
    asleep = HostQueue.objects.filter(crawl=crawl, asleep_until__isnull=False)
    assert asleep.count() == 30 and {row.asleep_until for row in asleep} == {later}
    with CaptureQueriesContext(connection) as captured:
        assert [name for name, _ in leased(crawl, 4)] == ["h34", "h35", "h36", "h37"]
    walk = next(q["sql"] for q in captured.captured_queries if "FROM frontier_hostqueue q JOIN" in q["sql"])
    assert "asleep_until IS NULL" in walk
    Host.objects.filter(name="www.h05.rs").update(next_fetch_at=None)
    assert leased(crawl, 1) == [("h05", 0.95)]


def test_a_host_whose_clock_runs_out_and_a_retry_that_falls_due_are_leased_then(settings):
    settings.CRAWLER_LEASE_LOOKAHEAD = 0.0
    crawl = crawl_with({"a": [0.9], "b": [0.8]})
    soon = timezone.now() + timedelta(seconds=0.5)
    Host.objects.filter(name="www.a.rs").update(next_fetch_at=soon)
    Target.objects.filter(crawl=crawl, priority=0.8).update(due_at=soon)
    assert leased(crawl, 10) == []
    time.sleep(max(0.0, (soon - timezone.now()).total_seconds()) + 0.05)
    assert leased(crawl, 10) == [("a", 0.9), ("b", 0.8)]


def test_a_batch_fills_from_further_down_when_the_top_rows_are_above_their_targets():
    """The best Targets of twenty hosts were finished outside leasing (their rows still say 1.0–0.81):
    the batch reads past them, takes the four best hosts with Targets due, and lowers those rows."""
    crawl = crawl_with({f"h{i:02d}": [1.0 - i / 100, 0.01] for i in range(30)})
    Target.objects.filter(crawl=crawl, host__name__in=[f"www.h{i:02d}.rs" for i in range(20)],
                          priority__gt=0.5).update(state=Target.State.DONE)
    assert leased(crawl, 4) == [(f"h{i}", 1.0 - i / 100) for i in range(20, 24)]
    lowered = HostQueue.objects.filter(crawl=crawl, host__name__in=[f"www.h{i:02d}.rs" for i in range(20)])
    assert {row.best_priority for row in lowered} == {0.01}, "the rows read above their Targets were lowered"


def test_a_postponed_target_waits_for_its_time_while_its_host_leases_its_next_one():
    crawl = crawl_with({"a": [0.9, 0.5], "b": [0.8]})
    later = timezone.now() + timedelta(seconds=30)
    Target.objects.filter(crawl=crawl, priority__in=[0.9, 0.8]).update(due_at=later)  # retries
    assert leased(crawl, 10) == [("a", 0.5)]
    free_all()
    assert leased(crawl, 10) == []
    assert 25 < next_lease_in(crawl) <= 30, "the first retry falls due in 30 s"
    Target.objects.filter(crawl=crawl, priority=0.8).update(due_at=timezone.now() - timedelta(seconds=1))
    assert leased(crawl, 10) == [("b", 0.8)]
    Target.objects.filter(crawl=crawl, priority=0.9).update(due_at=timezone.now() - timedelta(seconds=1))
    assert leased(crawl, 10) == [("a", 0.9)]


def test_a_one_queue_crawl_leases_a_host_once_for_its_best_target_of_either_queue():
    crawl = crawl_with({"a": [0.5], "b": [0.7]})
    crawl_with({"a": [0.9]}, origin="backlink", crawl=crawl)
    assert leased(crawl, 10) == [("a", 0.9), ("b", 0.7)]
    free_all()
    assert leased(crawl, 10) == [("a", 0.5)]


def test_a_host_waiting_for_its_clock_says_when_the_next_lease_is():
    crawl = crawl_with({"a": [0.5]})
    Host.objects.filter(name="www.a.rs").update(next_fetch_at=timezone.now() + timedelta(seconds=20))
    assert leased(crawl, 10) == []
    assert 15 < next_lease_in(crawl) <= 20
    release_hosts([(host("a").pk, 0.0, None)])
    [lease] = lease_batch(crawl, "w1", 10, 60)
    assert 55 < next_lease_in(crawl) <= 60, "its lease ends in 60 s at the latest"
    Target.objects.filter(pk=lease.target.pk).update(state=Target.State.DONE)
    assert next_lease_in(crawl) is None


def test_a_batch_reads_no_more_rows_in_a_big_frontier_than_in_a_small_one():
    small = crawl_with({f"s{i}": [0.5, 0.4] for i in range(10)})
    big = crawl_with({f"b{i:03d}": [0.5, 0.4, 0.3] for i in range(300)})
    statements = {}
    for crawl in (small, big):
        with CaptureQueriesContext(connection) as captured:
            assert len(lease_batch(crawl, "w1", 8, 60)) == 8
        statements[crawl.pk] = len(captured.captured_queries)
    assert statements[big.pk] == statements[small.pk]
