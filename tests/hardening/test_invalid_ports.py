"""A URL with a port no socket has (http://host:99999/, http://host:abc/) is refused with a named reason
wherever it enters: a link, a redirect's Location, a fetch with a proxy set. No crawl step dies of one."""
import pytest

from crawlweb.crawler.fetch import INVALID_URL, Fetcher
from crawlweb.crawler.urls import InvalidURL, normalize_url
from crawlweb.testweb.hostile import HOSTILE_HOST, HOSTILE_PATHS

BAD_PORTS = ["http://www.primer.rs:abc/", "http://www.primer.rs:99999/", "http://[::1]:99999/",
             "http://www.primer.rs:-1/"]


@pytest.mark.parametrize("url", BAD_PORTS)
def test_a_fetch_through_a_proxy_records_a_bad_port_as_an_invalid_url(url, test_web_server, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", test_web_server.proxy_url)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")  # requests reads the port to match it
    with Fetcher("port-test/1.0") as fetcher:
        result = fetcher.fetch(url)
    assert result.error_kind == INVALID_URL
    assert "port" in result.error.lower() and url in result.error


@pytest.mark.parametrize("url", BAD_PORTS)
def test_a_link_to_a_bad_port_is_refused_with_its_reason(url):
    with pytest.raises(InvalidURL, match="malformed URL: Port"):
        normalize_url(url)


@pytest.mark.django_db(transaction=True)
def test_a_redirect_to_a_bad_port_fails_its_target_and_the_crawl_goes_on(settings, crawl_settings, through_test_web,
                                                                        empty_queues):
    from crawlweb.models import Crawl
    from crawlweb.jobs.crawl_control import start_crawl
    from frontier.models import Target

    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    redirects = [f"http://{HOSTILE_HOST}/preusmeri?to={url}" for url in BAD_PORTS]
    healthy = f"http://{HOSTILE_HOST}{HOSTILE_PATHS['homographs']}"  # its links lead to hosts the rule leaves out
    crawl = Crawl.objects.create(name="bad ports", page_budget=20,
                                 config={"url_rules": "allow URL:^http://www[.]napad[.]rs/(preusmeri|homografi)"})
    start_crawl(crawl, extra_urls=redirects + [healthy])
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    assert crawl.last_error == ""
    for url in redirects:
        target = Target.objects.get(crawl=crawl, url=normalize_url(url))
        assert (target.state, target.error_kind) == (Target.State.FAILED, INVALID_URL), target.last_error
        assert "Port" in target.last_error
    assert Target.objects.get(crawl=crawl, url=healthy).state == Target.State.DONE


@pytest.mark.django_db(transaction=True)
def test_a_target_made_by_hand_with_an_unfetchable_url_fails_alone(settings, crawl_settings, through_test_web,
                                                                  empty_queues):
    from crawlweb.models import Crawl, Host, Site
    from crawlweb.jobs.crawl_control import start_crawl
    from frontier.models import Target

    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    healthy = f"http://{HOSTILE_HOST}{HOSTILE_PATHS['homographs']}"
    crawl = Crawl.objects.create(name="by hand", page_budget=5,
                                 config={"url_rules": "allow URL:^http://www[.]napad[.]rs/homografi"})
    site = Site.objects.create(name="rucno.example.rs")
    host = Host.objects.create(name="rucno.example.rs", site=site)
    by_hand = Target.objects.create(crawl=crawl, url="javascript:alert(2)", host=host, site=site)  # as the admin allows
    start_crawl(crawl, extra_urls=[healthy])
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    by_hand.refresh_from_db()
    assert (by_hand.state, by_hand.error_kind) == (Target.State.FAILED, INVALID_URL)
    assert "not an absolute URL" in by_hand.last_error
    assert Target.objects.get(crawl=crawl, url=healthy).state == Target.State.DONE
