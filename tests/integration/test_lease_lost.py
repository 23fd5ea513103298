"""A fetch thread that waited past its lease (a loaded machine, a host's clock) sends no request: the
Target may be another worker's by then, and a page is requested once."""
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from crawlweb.crawler.robots import ALLOW_ALL
from crawlweb.models import Crawl, Host
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.fetch_threads import fetch_and_prepare
from crawlweb.services.leasing import lease_batch
from crawlweb.services.network import fetcher_for, warc_writer_for
from crawlweb.services.storing import record_batch
from crawlweb.services.targets import Candidate, add_targets
from frontier.models import Target

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_lease_that_ran_out_before_its_request_is_not_fetched_and_the_next_worker_fetches_it_once(
        crawl_settings, through_test_web):
    crawl_settings.CRAWLER_LEASE_LOOKAHEAD = 5.0
    [url, *_] = through_test_web.web.truth()["sites"][0]["home_urls"].values()
    crawl = Crawl.objects.create(name="lease lost", page_budget=10)
    add_targets(crawl, [Candidate(url)], origin="seed")
    later = timezone.now() + timedelta(hours=1)  # its robots.txt read already: the page is the request
    Host.objects.update(next_fetch_at=timezone.now() + timedelta(seconds=1.5), robots_expires_at=later,
                        robots={"mode": ALLOW_ALL, "status": 404, "text": "", "fetched_at": time.time(),
                                "expires_at": later.timestamp()})
    config = CrawlConfig.for_crawl(crawl)
    network, warc = fetcher_for(config.address_policy), warc_writer_for(crawl.pk)

    [slow] = lease_batch(crawl, "w1", 10, 1)  # the host is due in 1.5 s, the lease lasts 1 s
    late = fetch_and_prepare(network, slow, config, warc)
    assert late.lease_lost and late.outcome.result is None
    [again] = lease_batch(crawl, "w2", 10, 60)
    assert again.target.pk == slow.target.pk
    record_batch(crawl, [fetch_and_prepare(network, again, config, warc)], config)
    record_batch(crawl, [late], config)  # w1 stores what it has after w2: nothing of it

    pages = [entry.url for entry in through_test_web.requests if not entry.url.endswith("/robots.txt")]
    assert pages == [url]
    target = Target.objects.get(pk=slow.target.pk)
    assert (target.state, target.lease_owner, target.page_id is not None) == (Target.State.DONE, "w2", True)
    assert Crawl.objects.get(pk=crawl.pk).pages_fetched == 1
