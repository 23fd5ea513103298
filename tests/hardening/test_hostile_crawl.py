"""A real crawl of the hostile site (crawlweb/testweb/hostile.py): every case's Target ends fetched or with
a named error kind, internal addresses are refused, and the crawl finishes."""
import pytest

from crawlweb.crawler.urls import normalize_url
from crawlweb.testweb.hostile import HOSTILE_HOST, HOSTILE_PATHS, gzip_bomb

pytestmark = pytest.mark.django_db(transaction=True)

ENDS = {"never_ending": "too_large", "slow_loris": "timeout", "gzip_bomb": "too_large", "million_links": "too_large"}


def test_the_crawl_goes_on_through_every_hostile_case_and_loses_nothing(settings, crawl_settings, through_test_web,
                                                                        empty_queues):
    from crawlweb.models import Crawl
    from crawlweb.jobs.crawl_control import start_crawl
    from frontier.models import Target

    gzip_bomb()  # built before the deadlines run
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    settings.CRAWLER_READ_TIMEOUT, settings.CRAWLER_TOTAL_TIMEOUT = 2.0, 3.0
    settings.CRAWLER_MAX_PAGE_BYTES, settings.CRAWLER_MAX_ATTEMPTS = 2 * 1024 * 1024, 1
    settings.CRAWLER_IDLE_FINISH_SECONDS, settings.CRAWLER_WARC = 1.0, False
    crawl = Crawl.objects.create(name="hostile", page_budget=30)
    start_crawl(crawl, extra_urls=[f"http://{HOSTILE_HOST}/", f"http://{HOSTILE_HOST}/interno.html?port=9"])
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    targets = {t.url: t for t in Target.objects.filter(crawl=crawl)}
    for name, path in HOSTILE_PATHS.items():
        target = targets[normalize_url(f"http://{HOSTILE_HOST}{path}")]
        assert target.error_kind == ENDS.get(name, ""), (name, target.state, target.last_error)
        assert target.state in (Target.State.DONE, Target.State.FAILED), (name, target.state)
    internal = [t for t in targets.values() if "127.0.0.1" in t.url or "10.0.0.1" in t.url or "169.254" in t.url]
    assert len(internal) >= 3 and all(t.error_kind == "private_address" for t in internal)
    assert not any(t.url.startswith(("javascript:", "data:", "mailto:", "file:")) for t in targets.values())
    assert any("xn--primr-2we.rs" in url for url in targets)
    assert max(len(url) for url in targets) <= settings.CRAWLER_MAX_URL_LENGTH
    assert len(targets) < 5200  # the million-link page gave at most 5,000
