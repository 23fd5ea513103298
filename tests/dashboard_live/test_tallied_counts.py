"""The crawl's tallies (what the dashboard reads) equal counts of its rows after the real COBFC crawl
of this package (M01 + M03 layers, backlinks, errors), and stay equal as its Targets move on through
the project's own code: another crawl step (leased, then done, failed or skipped; new Targets and
pages), a worker's leases that run out and come back (revived), a fetch that fails, a re-harvest."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import F
from django.utils import timezone

from crawlweb.crawler.fetch import FetchResult
from crawlweb.jobs.crawl_step import crawl_step
from crawlweb.models import Crawl, Page
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.jobs.crawl_control import reharvest_crawl
from crawlweb.services.leasing import lease_batch, recover_expired_leases
from crawlweb.services.network import NetworkOutcome
from crawlweb.services.storing import Fetched, record_batch
from frontier.models import Target
from tests.tallies.counts import assert_tallies_match

pytestmark = pytest.mark.django_db


def test_every_tally_of_the_crawl_equals_a_count_of_its_rows(watched_crawl):
    direct = assert_tallies_match(watched_crawl.pk)
    assert len(direct["targets"]) > 5 and direct["pages"] and direct["layers"] and direct["hosts_with_work"]


def test_the_tallies_follow_the_targets_through_a_step_a_lost_lease_a_failure_and_a_reharvest(watched_crawl):
    crawl = Crawl.objects.get(pk=watched_crawl.pk)
    pages_before = Page.objects.filter(crawl=crawl).count()
    Crawl.objects.filter(pk=crawl.pk).update(state=Crawl.State.RUNNING, page_budget=F("pages_fetched") + 6)
    for _ in range(3):  # the first may fetch only a page the crawl holds (a deep guess redirected to it)
        assert crawl_step(crawl.pk) > 0  # leased, fetched and stored
        assert_tallies_match(crawl.pk, "after another step")
        if Page.objects.filter(crawl=crawl).count() > pages_before:
            break
    assert Page.objects.filter(crawl=crawl).count() > pages_before

    crawl.refresh_from_db()
    leases = lease_batch(crawl, "a-worker-that-dies", 4, 60)
    assert leases
    assert_tallies_match(crawl.pk, "leased")
    Target.objects.filter(pk__in=[lease.target.pk for lease in leases]).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1))  # its worker died: the leases run out
    assert recover_expired_leases(crawl) == len(leases)
    assert_tallies_match(crawl.pk, "revived")

    lease = lease_batch(crawl, "a-worker", 1, 60)[0]
    gone = FetchResult(requested_url=lease.target.url, final_url=lease.target.url, status=404)
    record_batch(crawl, [Fetched(lease, NetworkOutcome(result=gone, finished_at=timezone.now().timestamp()))],
                 CrawlConfig.for_crawl(crawl))
    assert Target.objects.get(pk=lease.target.pk).state == Target.State.FAILED
    assert_tallies_match(crawl.pk, "failed")

    assert reharvest_crawl(crawl) > 0  # every fetched page's Target pending again, in one statement
    assert_tallies_match(crawl.pk, "re-harvested")
