"""Leasing: a host due within the look-ahead is leased now, and its lease says how long to wait;
releasing hosts starts their politeness clocks."""
from datetime import timedelta

import pytest
from django.utils import timezone

from crawlweb.models import Crawl, Host, Site
from crawlweb.services.leasing import lease_batch, release_hosts
from crawlweb.services.targets import Candidate, add_targets

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


def test_releasing_hosts_sets_each_hosts_clock_from_its_request_end():
    site = Site.objects.create(name="primer.rs")
    first, second = (Host.objects.create(name=name, site=site, busy_until=timezone.now() + timedelta(seconds=60))
                     for name in ("www.primer.rs", "en.primer.rs"))
    ended = timezone.now() - timedelta(seconds=0.25)
    before = timezone.now()
    release_hosts([(first.pk, 1.5, ended), (second.pk, 2.0, None)])
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.busy_until is None and second.busy_until is None
    assert first.next_fetch_at == ended + timedelta(seconds=1.5)
    assert Host.objects.filter(next_fetch_at=ended + timedelta(seconds=1.5)).get() == first  # stored as Django would
    assert before + timedelta(seconds=2.0) <= second.next_fetch_at <= timezone.now() + timedelta(seconds=2.0)
