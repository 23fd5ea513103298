"""A robots.txt Crawl-delay is a number a web site wrote: it is bounded where it is read (an hour at
most), and a host's politeness clock never overflows, so one site cannot stop the crawl of the others."""
from datetime import timedelta

import pytest
from django.utils import timezone

from crawlweb.crawler.politeness import MAX_HOST_INTERVAL_S
from crawlweb.crawler.robots import RobotsPolicy
from tests.conftest import route_through
from tests.served_site import served_site

AGENT = "BilingualCrawler/0.1"
SLOW_HOST = "spori.example.rs"
HEALTHY_HOST = "zdravi.example.rs"


def _delay(value: str):
    policy = RobotsPolicy.from_response(200, f"User-agent: *\nCrawl-delay: {value}\n".encode(), 0.0)
    return policy.crawl_delay(AGENT)


@pytest.mark.parametrize("value, seconds", [
    ("1e300", MAX_HOST_INTERVAL_S), ("99999999999999999999999", MAX_HOST_INTERVAL_S), ("7200", MAX_HOST_INTERVAL_S),
    ("2.5", 2.5), ("0", 0.0), ("-5", None), ("nan", None), ("inf", None), ("soon", None),
])
def test_a_crawl_delay_is_read_within_an_hour(value, seconds):
    assert MAX_HOST_INTERVAL_S == 3600
    assert _delay(value) == seconds


@pytest.mark.django_db
@pytest.mark.parametrize("interval", [1e300, float("inf"), float("nan")])
def test_releasing_a_host_with_an_unbounded_interval_waits_an_hour(interval):
    from crawlweb.models import Host, Site
    from crawlweb.services.leasing import release_hosts

    site = Site.objects.create(name="example.rs")
    host, other = (Host.objects.create(name=name, site=site) for name in ("www.example.rs", "example.rs"))
    release_hosts([(host.pk, interval, None), (other.pk, 1.0, None)])
    host.refresh_from_db(), other.refresh_from_db()
    assert timedelta(minutes=59) < host.next_fetch_at - timezone.now() <= timedelta(hours=1)
    assert other.next_fetch_at - timezone.now() <= timedelta(seconds=1)


@pytest.fixture
def two_sites(tmp_path):
    healthy = tmp_path / "hosts" / HEALTHY_HOST
    healthy.mkdir(parents=True)
    for name, link in (("index.html", "a.html"), ("a.html", "b.html"), ("b.html", "/")):
        (healthy / name).write_text(f'<html lang="sr"><body><p>Strana {name}</p><a href="{link}">dalje</a></body></html>')
    files = {"robots.txt": "User-agent: *\nCrawl-delay: 1e300\n", "index.html": "<html><body>Spori</body></html>"}
    with served_site(tmp_path, SLOW_HOST, files, pairs=[]) as server:
        yield server


@pytest.mark.django_db(transaction=True)
def test_a_site_asking_for_a_crawl_delay_of_1e300_does_not_stop_the_crawl(two_sites, settings, crawl_settings,
                                                                         empty_queues, monkeypatch):
    from crawlweb.models import Crawl, Host
    from crawlweb.jobs.crawl_control import start_crawl
    from crawlweb.services.network import fetcher_for
    from frontier.models import Target

    route_through(two_sites, monkeypatch)
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    crawl = Crawl.objects.create(name="crawl-delay", page_budget=10)
    try:
        start_crawl(crawl, extra_urls=[f"http://{SLOW_HOST}/", f"http://{HEALTHY_HOST}/"])
    finally:
        fetcher_for.cache_clear()
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    assert crawl.last_error == ""
    assert Host.objects.get(name=SLOW_HOST).crawl_delay == MAX_HOST_INTERVAL_S
    healthy = Target.objects.filter(crawl=crawl, host__name=HEALTHY_HOST, state=Target.State.DONE)
    assert healthy.count() == 3
    # the slow site's page waits for its turn, an hour after its robots.txt
    assert Target.objects.get(crawl=crawl, host__name=SLOW_HOST).state == Target.State.PENDING
