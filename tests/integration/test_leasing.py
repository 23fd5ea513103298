"""Leasing: a host due within the look-ahead is leased now, and its lease says how long to wait;
releasing hosts starts their politeness clocks."""
from datetime import timedelta

import pytest
from django.utils import timezone

from crawlweb.models import Crawl, Host
from crawlweb.services.leasing import hand_back_leases, lease_batch, release_hosts
from crawlweb.services.targets import Candidate, add_targets
from frontier.models import Target

pytestmark = pytest.mark.django_db


def crawl_with_host_due_in(seconds: float) -> Crawl:
    crawl = Crawl.objects.create(name="lookahead", page_budget=10)
    add_targets(crawl, [Candidate("http://www.primer.rs/a.html")], origin="seed")
    Host.objects.filter(name="www.primer.rs").update(next_fetch_at=timezone.now() + timedelta(seconds=seconds))
    return crawl


def test_a_host_due_within_the_lookahead_is_leased_and_waits_for_its_moment(settings):
    settings.CRAWLER_LEASE_LOOKAHEAD = 5.0
    crawl = crawl_with_host_due_in(3.0)
    [lease] = lease_batch(crawl, "w1", 10, 60)
    assert 1.0 < lease.wait_s() <= 3.0


def test_a_host_due_after_the_lookahead_is_not_leased(settings):
    settings.CRAWLER_LEASE_LOOKAHEAD = 0.2
    crawl = crawl_with_host_due_in(1.0)
    assert lease_batch(crawl, "w1", 10, 60) == []
    settings.CRAWLER_LEASE_LOOKAHEAD = 0.0
    Host.objects.filter(name="www.primer.rs").update(next_fetch_at=timezone.now() - timedelta(seconds=0.01))
    [lease] = lease_batch(crawl, "w1", 10, 60)
    assert lease.wait_s() == 0.0


def test_released_hosts_are_free_and_their_clocks_run_from_each_request_end():
    crawl = Crawl.objects.create(name="release", page_budget=10)
    add_targets(crawl, [Candidate(f"http://www.{name}.rs/") for name in ("prvi", "drugi", "treci")], origin="seed")
    add_targets(crawl, [Candidate(f"http://www.{name}.rs/o-nama.html") for name in ("prvi", "drugi")], origin="seed")
    leases = lease_batch(crawl, "w1", 10, 60)
    assert len(leases) == 3 and all(lease.host.pk for lease in leases)
    ended = timezone.now() - timedelta(seconds=10)
    by_name = {lease.host.name: lease.host.pk for lease in leases}
    first, second, third = by_name["www.prvi.rs"], by_name["www.drugi.rs"], by_name["www.treci.rs"]
    release_hosts([(first, 1.0, ended), (second, 30.0, ended), (third, 2.5, None)])

    hosts = {host.pk: host for host in Host.objects.filter(pk__in=[first, second, third])}
    assert all(host.busy_until is None for host in hosts.values())
    assert hosts[first].next_fetch_at == ended + timedelta(seconds=1)
    assert Host.objects.filter(next_fetch_at=ended + timedelta(seconds=1)).get().pk == first  # stored as Django would
    assert hosts[second].next_fetch_at == ended + timedelta(seconds=30)
    # No recorded end: the clock runs from the release.
    assert timezone.now() < hosts[third].next_fetch_at <= timezone.now() + timedelta(seconds=2.5)
    # Only the host whose clock ran out is leased again, for its other page.
    assert [lease.host.pk for lease in lease_batch(crawl, "w2", 10, 60)] == [first]


def test_a_target_whose_lease_expired_is_leased_again_and_a_live_lease_is_not():
    crawl = Crawl.objects.create(name="expiry", page_budget=10)
    add_targets(crawl, [Candidate(f"http://www.{name}.rs/") for name in ("prvi", "drugi")], origin="seed")
    leases = lease_batch(crawl, "dead worker", 10, 60)
    assert len(leases) == 2
    expired, live = leases
    Target.objects.filter(pk=expired.target.pk).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    Host.objects.filter(pk=expired.host.pk).update(busy_until=timezone.now() - timedelta(seconds=1))

    [again] = lease_batch(crawl, "w2", 10, 60)
    assert again.target.pk == expired.target.pk and again.target.attempts == 2
    row = Target.objects.get(pk=expired.target.pk)
    assert (row.state, row.lease_owner, row.attempts) == (Target.State.LEASED, "w2", 2)
    assert Target.objects.get(pk=live.target.pk).lease_owner == "dead worker"


def test_a_worker_hands_back_only_what_it_still_holds_and_frees_those_hosts():
    crawl = Crawl.objects.create(name="hand back", page_budget=10)
    add_targets(crawl, [Candidate(f"http://www.{name}.rs/") for name in ("prvi", "drugi", "treci")], origin="seed")
    mine = {lease.host.name: lease for lease in lease_batch(crawl, "w1", 2, 60)}
    [theirs] = lease_batch(crawl, "w2", 10, 60)
    stored, unstored = sorted(mine)
    Target.objects.filter(pk=mine[stored].target.pk).update(state=Target.State.DONE)  # w1 stored this one

    assert hand_back_leases(crawl, "w1", lambda host: 4.0) == 1

    back = Target.objects.get(pk=mine[unstored].target.pk)
    assert (back.state, back.lease_owner, back.lease_expires_at, back.attempts) == (Target.State.PENDING, "", None, 0)
    assert Target.objects.get(pk=mine[stored].target.pk).state == Target.State.DONE
    assert Target.objects.get(pk=theirs.target.pk).lease_owner == "w2", "another worker's lease is not touched"
    hosts = {host.name: host for host in Host.objects.all()}
    assert hosts[unstored].busy_until is None
    # The request was made: the host's politeness clock runs from the hand-back.
    assert timezone.now() < hosts[unstored].next_fetch_at <= timezone.now() + timedelta(seconds=4)
    assert hosts[theirs.host.name].busy_until is not None
