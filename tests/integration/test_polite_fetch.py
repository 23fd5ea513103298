"""One page fetched for a crawl outside its steps (the BS Detector's checks): robots.txt, the host's
politeness clock and the page budget hold, and the page is stored and counted like any other."""
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from crawlweb.models import Crawl, Host, Page
from crawlweb.services.polite_fetch import PoliteFetcher
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
    fetched = PoliteFetcher(crawl).fetch(HOME_EN, origin=Target.Origin.DETECTOR, depth=1)
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
    first = PoliteFetcher(crawl).fetch(HOME_EN, origin=Target.Origin.DETECTOR)
    through_test_web.clear_log()
    again = PoliteFetcher(crawl).fetch(HOME_EN, origin=Target.Origin.DETECTOR)
    assert again.page == first.page and not again.downloaded
    assert through_test_web.requests == []
    crawl.refresh_from_db()
    assert crawl.pages_fetched == 1


def test_robots_txt_is_obeyed(crawl, through_test_web):
    PoliteFetcher(crawl).fetch(HOME_SR, origin=Target.Origin.DETECTOR)  # caches primer.rs's robots.txt
    private = "http://www.primer.rs/private/"
    fetched = PoliteFetcher(crawl).fetch(private, origin=Target.Origin.DETECTOR)
    assert fetched.page is None and fetched.reason == "robots" and not fetched.downloaded
    assert not [r for r in through_test_web.requests if "/private/" in r.url]


def test_nothing_is_fetched_once_the_budget_is_spent(crawl, through_test_web):
    Crawl.objects.filter(pk=crawl.pk).update(pages_fetched=5)
    fetched = PoliteFetcher(crawl).fetch(HOME_EN, origin=Target.Origin.DETECTOR)
    assert fetched.page is None and fetched.reason == "budget"
    assert through_test_web.requests == []
    assert not Target.objects.filter(crawl=crawl, state__in=["pending", "leased"]).exists()


def test_a_paused_crawl_makes_no_request(crawl, through_test_web):
    Crawl.objects.filter(pk=crawl.pk).update(state=Crawl.State.PAUSED)
    fetched = PoliteFetcher(crawl).fetch(HOME_EN, origin=Target.Origin.DETECTOR)
    assert fetched.page is None and fetched.reason == "paused"
    assert through_test_web.requests == []


def test_the_host_politeness_interval_is_kept(crawl, through_test_web):
    crawl.config = {"host_interval": 0.4}
    crawl.save()
    for url in (HOME_SR, HOME_EN, "http://www.primer.rs/sr/kontakt.html"):
        PoliteFetcher(crawl).fetch(url, origin=Target.Origin.DETECTOR)
    requests = sorted(through_test_web.requests, key=lambda r: r.monotonic)
    assert len(requests) == 4  # robots.txt and three pages
    gaps = [after.monotonic - before.monotonic_end for before, after in zip(requests, requests[1:])]
    assert min(gaps) >= 0.35, gaps


def test_a_host_whose_politeness_clock_has_not_run_out_is_waited_for(crawl, through_test_web):
    PoliteFetcher(crawl).fetch(HOME_SR, origin=Target.Origin.DETECTOR)
    # A crawl step's request to the host just ended: the next one may start 0.6 s from now.
    Host.objects.filter(name="www.primer.rs").update(next_fetch_at=timezone.now() + timedelta(seconds=0.6))
    started = time.monotonic()
    fetched = PoliteFetcher(crawl).fetch(HOME_EN, origin=Target.Origin.DETECTOR)
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


def english_homes(server, count: int) -> list[str]:
    """The English home pages of the first ``count`` bilingual sites of the test web but www.primer.rs (one host each)."""
    homes = [site["home_urls"]["en"] for site in server.web.truth()["sites"]
             if "en" in site.get("home_urls", {}) and "www.primer.rs" not in site["home_urls"]["en"]]
    assert len(homes) >= count, homes
    return homes[:count]


def test_pages_of_many_hosts_are_fetched_side_by_side_and_stored_as_one_batch(crawl, through_test_web):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from crawlweb.services.followups import StepResult
    from crawlweb.services.polite_fetch import FetchRequest

    crawl.page_budget = 20
    crawl.save()
    homes = english_homes(through_test_web, 4)
    stored = PoliteFetcher(crawl).fetch(HOME_EN, origin=Target.Origin.DETECTOR)  # a page the crawl has
    through_test_web.clear_log()
    requests = [FetchRequest(url, origin=Target.Origin.DETECTOR, depth=1) for url in homes + [HOME_EN, homes[0]]]
    step = StepResult(crawl.pk)
    with CaptureQueriesContext(connection) as queries:
        fetched = PoliteFetcher(crawl).fetch_many(requests, step)

    assert [f.downloaded for f in fetched] == [True] * 4 + [False, False]
    assert fetched[4].page == stored.page and fetched[5].page == fetched[0].page, "stored, or asked twice: one request"
    assert all(f.page.language == "en" and f.page.final_url == url for f, url in zip(fetched, homes))
    robots = {url for url in (r.url for r in through_test_web.requests) if url.endswith("/robots.txt")}
    assert len(robots) == 4 and len(through_test_web.requests) == 8, "each host's robots.txt, then its page, once"
    crawl.refresh_from_db()
    assert crawl.pages_fetched == 5
    assert {t.state for t in Target.objects.filter(crawl=crawl, url__in=homes)} == {Target.State.DONE}
    assert {t.origin for t in Target.objects.filter(crawl=crawl, url__in=homes)} == {"detector"}
    page_inserts = [q for q in queries.captured_queries  # PostgreSQL's own statement, or the ORM's on SQLite
                    if any(f"INSERT INTO {name} " in q["sql"] for name in ("crawlweb_page", '"crawlweb_page"'))]
    # stored together: one batch, and one more for the hosts whose robots.txt asks a Crawl-delay (their
    # page waits for the delay after robots.txt, the others do not wait for it)
    delayed = Host.objects.filter(name__in=[url.split("/")[2] for url in homes], crawl_delay__gt=0).count()
    assert len(page_inserts) == 1 + (delayed > 0), (len(page_inserts), delayed)
    assert sorted(step.stored_page_ids) == sorted(f.page.pk for f in fetched[:4]), "their follow-ups are the caller's"


def test_side_by_side_fetches_stay_within_the_budget(crawl, through_test_web):
    from crawlweb.services.followups import StepResult
    from crawlweb.services.polite_fetch import FetchRequest

    crawl.page_budget = 2
    crawl.save()
    homes = english_homes(through_test_web, 4)
    fetched = PoliteFetcher(crawl).fetch_many(
        [FetchRequest(url, origin=Target.Origin.DETECTOR) for url in homes], StepResult(crawl.pk))
    assert sorted(f.reason for f in fetched) == ["", "", "budget", "budget"]
    assert sum(f.downloaded for f in fetched) == 2
    crawl.refresh_from_db()
    assert crawl.pages_fetched == 2
    assert not Target.objects.filter(crawl=crawl, state__in=["pending", "leased"]).exists()
    assert not Host.objects.filter(busy_until__isnull=False).exists(), "no host left claimed"


def test_two_pages_of_one_host_fetched_side_by_side_keep_its_politeness_interval(crawl, through_test_web):
    from crawlweb.services.followups import StepResult
    from crawlweb.services.polite_fetch import FetchRequest

    crawl.config = {"host_interval": 0.4}
    crawl.save()
    urls = [HOME_SR, HOME_EN, english_homes(through_test_web, 1)[0]]
    fetched = PoliteFetcher(crawl).fetch_many(
        [FetchRequest(url, origin=Target.Origin.DETECTOR) for url in urls], StepResult(crawl.pk))
    assert all(f.downloaded for f in fetched), [f.reason for f in fetched]
    primer = sorted((r for r in through_test_web.requests if "www.primer.rs" in r.url), key=lambda r: r.monotonic)
    assert [r.url for r in primer] == ["http://www.primer.rs/robots.txt", HOME_SR, HOME_EN]
    gaps = [after.monotonic - before.monotonic_end for before, after in zip(primer, primer[1:])]
    assert min(gaps) >= 0.35, gaps
