"""One page fetched for a crawl outside its steps (the BS Detector's checks): robots.txt, the host's
politeness clock and the page budget hold, and the page is stored and counted like any other."""
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from crawlweb.models import Crawl, Host, Page
from crawlweb.services.polite_fetch import PoliteFetcher, fetch_for_crawl
from frontier.models import Target

pytestmark = pytest.mark.django_db(transaction=True)
HOME_SR, HOME_EN = "http://www.primer.rs/sr/", "http://www.primer.rs/en/"


def fetches_of(server, url):
    return [r for r in server.requests if r.url == url]


@pytest.fixture
def crawl(crawl_settings):
    return Crawl.objects.create(name="detector checks", strategy="obfc", page_budget=5, state=Crawl.State.RUNNING,
                                config={"host_interval": 0})


def test_a_page_is_fetched_after_robots_txt_stored_and_counted(crawl, through_test_web):
    fetched = fetch_for_crawl(crawl, HOME_EN, origin=Target.Origin.DETECTOR, depth=1)
    assert fetched.downloaded and fetched.reason == ""
    assert fetched.page.language == "en" and fetched.page.final_url == HOME_EN
    crawl.refresh_from_db()
    assert crawl.pages_fetched == 1
    robots, page = [r.url for r in through_test_web.requests]
    assert robots == "http://www.primer.rs/robots.txt" and page == HOME_EN
    target = Target.objects.get(crawl=crawl, url=HOME_EN)
    assert target.origin == "detector" and target.state == Target.State.DONE and target.page == fetched.page
    assert Host.objects.get(name="www.primer.rs").robots, "the host's robots.txt is cached for the crawl"
    assert fetched.step.stored_page_ids == [fetched.page.pk], "its follow-ups are the caller's to run"


def test_a_page_the_crawl_stored_is_not_fetched_again(crawl, through_test_web):
    first = fetch_for_crawl(crawl, HOME_EN, origin=Target.Origin.DETECTOR)
    through_test_web.clear_log()
    again = fetch_for_crawl(crawl, HOME_EN, origin=Target.Origin.DETECTOR)
    assert again.page == first.page and not again.downloaded
    assert through_test_web.requests == []
    crawl.refresh_from_db()
    assert crawl.pages_fetched == 1


def test_robots_txt_is_obeyed(crawl, through_test_web):
    fetch_for_crawl(crawl, HOME_SR, origin=Target.Origin.DETECTOR)  # caches primer.rs's robots.txt
    private = "http://www.primer.rs/private/"
    fetched = fetch_for_crawl(crawl, private, origin=Target.Origin.DETECTOR)
    assert fetched.page is None and fetched.reason == "robots" and not fetched.downloaded
    assert not [r for r in through_test_web.requests if "/private/" in r.url]


def test_nothing_is_fetched_once_the_budget_is_spent(crawl, through_test_web):
    Crawl.objects.filter(pk=crawl.pk).update(pages_fetched=5)
    fetched = fetch_for_crawl(crawl, HOME_EN, origin=Target.Origin.DETECTOR)
    assert fetched.page is None and fetched.reason == "budget"
    assert through_test_web.requests == []
    assert not Target.objects.filter(crawl=crawl, state__in=["pending", "leased"]).exists()


def test_a_paused_crawl_makes_no_request(crawl, through_test_web):
    Crawl.objects.filter(pk=crawl.pk).update(state=Crawl.State.PAUSED)
    fetched = fetch_for_crawl(crawl, HOME_EN, origin=Target.Origin.DETECTOR)
    assert fetched.page is None and fetched.reason == "paused"
    assert through_test_web.requests == []


def test_the_host_politeness_interval_is_kept(crawl, through_test_web):
    crawl.config = {"host_interval": 0.4}
    crawl.save()
    for url in (HOME_SR, HOME_EN, "http://www.primer.rs/sr/kontakt.html"):
        fetch_for_crawl(crawl, url, origin=Target.Origin.DETECTOR)
    requests = sorted(through_test_web.requests, key=lambda r: r.monotonic)
    assert len(requests) == 4  # robots.txt and three pages
    gaps = [after.monotonic - before.monotonic_end for before, after in zip(requests, requests[1:])]
    assert min(gaps) >= 0.35, gaps


def test_a_host_whose_politeness_clock_has_not_run_out_is_waited_for(crawl, through_test_web):
    fetch_for_crawl(crawl, HOME_SR, origin=Target.Origin.DETECTOR)
    # A crawl step's request to the host just ended: the next one may start 0.6 s from now.
    Host.objects.filter(name="www.primer.rs").update(next_fetch_at=timezone.now() + timedelta(seconds=0.6))
    started = time.monotonic()
    fetched = fetch_for_crawl(crawl, HOME_EN, origin=Target.Origin.DETECTOR)
    assert fetched.downloaded and time.monotonic() - started >= 0.5
    assert Page.objects.filter(crawl=crawl).count() == 2


def test_one_fetcher_keeps_the_politeness_interval_between_its_own_fetches(crawl, through_test_web):
    crawl.config = {"host_interval": 0.4}
    crawl.save()
    fetcher = PoliteFetcher(crawl)  # a detector job's: the Host row found once
    for url in (HOME_SR, HOME_EN, "http://www.primer.rs/sr/kontakt.html"):
        assert fetcher.fetch(url, origin=Target.Origin.DETECTOR).downloaded
    requests = sorted(through_test_web.requests, key=lambda r: r.monotonic)
    assert [r.url for r in requests][0] == "http://www.primer.rs/robots.txt" and len(requests) == 4
    gaps = [after.monotonic - before.monotonic_end for before, after in zip(requests, requests[1:])]
    assert min(gaps) >= 0.35, gaps


def test_one_fetcher_waits_for_a_clock_another_worker_set_after_it_met_the_host(crawl, through_test_web):
    fetcher = PoliteFetcher(crawl)
    fetcher.fetch(HOME_SR, origin=Target.Origin.DETECTOR)
    # Another worker's request to the host just ended: its row says 0.6 s, the fetcher's copy does not.
    Host.objects.filter(name="www.primer.rs").update(next_fetch_at=timezone.now() + timedelta(seconds=0.6))
    started = time.monotonic()
    fetched = fetcher.fetch(HOME_EN, origin=Target.Origin.DETECTOR)
    assert fetched.downloaded and time.monotonic() - started >= 0.5
    crawl.refresh_from_db()
    assert crawl.pages_fetched == 2 and Page.objects.filter(crawl=crawl).count() == 2
