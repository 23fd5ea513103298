"""The crawl engine over the test web's broken and special pages: every outcome recorded with
the right error kind, robots and politeness honoured, WARC files readable."""
import time
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator

from crawlweb.models import Crawl, Host, Link, Page
from crawlweb.jobs.crawl_control import reharvest_crawl, start_crawl
from frontier.models import Target

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sync_jobs(settings, crawl_settings):
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "sync"
    settings.CRAWLER_READ_TIMEOUT = 1.5  # the slow page (3 s) times out
    settings.CRAWLER_RETRY_BACKOFF = 0.5
    return settings


def special_crawl(server, kinds, **fields) -> Crawl:
    urls = [server.web.truth()["special_urls"][kind] for kind in kinds]
    crawl = Crawl.objects.create(name="specials", page_budget=fields.pop("page_budget", 60),
                                 follow_out_of_site=False, **fields)
    start_crawl(crawl, extra_urls=urls)
    crawl.refresh_from_db()
    return crawl


def wait_for_requests(server, url, count, timeout=10.0):
    """Start times of the requests for url; the log gets an entry when the answer ends (slow pages)."""
    deadline = time.monotonic() + timeout
    while True:
        tries = sorted(r.monotonic for r in server.requests if r.url == url)
        if len(tries) >= count or time.monotonic() > deadline:
            return tries
        time.sleep(0.1)


def target(crawl, server, kind) -> Target:
    return Target.objects.get(crawl=crawl, url=server.web.truth()["special_urls"][kind])


def test_each_broken_page_gets_the_right_outcome(sync_jobs, through_test_web):
    kinds = ["not_found", "server_error", "redirect_loop", "redirect_to_loopback", "redirect_to_private",
             "redirect_chain", "slow", "oversized", "binary_png", "binary_zip", "truncated",
             "robots_disallowed_page"]
    crawl = special_crawl(through_test_web, kinds, max_depth=0)
    outcome = {kind: target(crawl, through_test_web, kind) for kind in kinds}

    assert (outcome["not_found"].state, outcome["not_found"].status_code) == ("failed", 404)
    assert outcome["not_found"].error_kind == "http_error"
    # 5xx and timeouts are transient: retried with growing backoff up to the attempt limit.
    for kind, error in (("server_error", "http_error"), ("slow", "timeout")):
        t = outcome[kind]
        assert (t.state, t.error_kind, t.attempts) == ("failed", error, sync_jobs.CRAWLER_MAX_ATTEMPTS), kind
        tries = wait_for_requests(through_test_web, t.url, sync_jobs.CRAWLER_MAX_ATTEMPTS)
        assert len(tries) == sync_jobs.CRAWLER_MAX_ATTEMPTS
        assert tries[1] - tries[0] >= 0.5, "retries wait for the backoff"
    fast = wait_for_requests(through_test_web, outcome["server_error"].url, 3)
    # The backoff doubles: retry n waits at least base x 2^(n-1). (The gaps themselves also hold the
    # batch each retry joins, whose length the 1.5 s timeouts of the slow page decide.)
    assert fast[1] - fast[0] >= 0.5 and fast[2] - fast[1] >= 1.0, "the backoff doubles between tries"
    # Permanent errors are not retried.
    assert [r.url for r in through_test_web.requests].count(outcome["not_found"].url) == 1
    assert (outcome["redirect_loop"].state, outcome["redirect_loop"].error_kind) == ("failed", "redirect_loop")
    for kind in ("redirect_to_loopback", "redirect_to_private"):
        assert (outcome[kind].state, outcome[kind].error_kind) == ("failed", "private_address"), kind
    chain = outcome["redirect_chain"]
    assert chain.state == "done"
    assert chain.page.final_url == through_test_web.web.truth()["special_urls"]["redirect_chain_final"]
    assert Link.objects.filter(page=chain.page, kind="redirect").count() >= 2, "each hop is recorded as a link"
    oversized = outcome["oversized"]
    assert (oversized.state, oversized.error_kind) == ("done", "too_large")
    assert oversized.page.truncated and oversized.page.size <= sync_jobs.CRAWLER_MAX_PAGE_BYTES
    for kind in ("binary_png", "binary_zip"):
        assert (outcome[kind].state, outcome[kind].error_kind) == ("done", "not_html"), kind
        assert outcome[kind].page.text == "", "binary content is stored, not parsed"
    assert outcome["truncated"].state == "done" and outcome["truncated"].page.text
    assert (outcome["robots_disallowed_page"].state, outcome["robots_disallowed_page"].error_kind) == (
        "skipped", "robots")


def test_a_5xx_robots_txt_postpones_the_host_instead_of_skipping_it(settings, crawl_settings, through_test_web,
                                                                  run_jobs):
    from django.utils import timezone

    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "thread"
    crawl = Crawl.objects.create(name="robots 5xx", page_budget=5, follow_out_of_site=False)
    start_crawl(crawl, extra_urls=["http://www.stonebridge.com/"])
    run_jobs()
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, "only a far-postponed Target is left: the crawl ends"
    t = Target.objects.get(crawl=crawl, error_kind="robots_unavailable", state="pending")
    assert (t.due_at - timezone.now()).total_seconds() > 60
    assert Host.objects.get(name="www.stonebridge.com").robots_status == 500
    assert not any(r.url == t.url for r in through_test_web.requests), "no page is fetched while robots.txt fails"


def test_a_wrong_declared_charset_does_not_produce_mojibake(sync_jobs, through_test_web):
    kinds = ["charset_wrong_header", "charset_windows_1250_meta", "charset_missing"]
    crawl = special_crawl(through_test_web, kinds, max_depth=0)
    for kind in kinds:
        page = target(crawl, through_test_web, kind).page
        assert page is not None, kind
        assert not any(marker in page.text for marker in ("Ã", "Ä", "Å", "Ð", "\ufffd")), (kind, page.text[:200])
        assert any(ch in page.text for ch in "čćđšžЧЋЂШЖабвгдежзи"), (kind, page.text[:200])


def test_a_loopback_address_is_refused_unless_the_crawl_allows_it(sync_jobs, through_test_web):
    url = f"http://127.0.0.1:{through_test_web.port}/"
    refused = Crawl.objects.create(name="public only", page_budget=3, max_depth=0)
    start_crawl(refused, extra_urls=[url])
    assert Target.objects.get(crawl=refused).error_kind == "private_address"
    allowed = Crawl.objects.create(name="loopback ok", page_budget=3, max_depth=0,
                                   config={"address_policy": "loopback"})
    start_crawl(allowed, extra_urls=[url])
    assert Target.objects.get(crawl=allowed).error_kind != "private_address"


def test_crawl_delay_from_robots_spaces_the_requests_to_a_host(sync_jobs, through_test_web):
    sync_jobs.CRAWLER_HOST_INTERVAL = 0.0
    crawl = Crawl.objects.create(name="delay", page_budget=4, follow_out_of_site=False)
    start_crawl(crawl, extra_urls=["http://www.galerija.rs/"])
    assert Host.objects.get(name="www.galerija.rs").crawl_delay == 1.0
    served = sorted((r for r in through_test_web.requests if r.host == "www.galerija.rs"),
                    key=lambda r: r.monotonic)
    assert len(served) >= 4  # robots.txt and the pages
    gaps = [b.monotonic - a.monotonic_end for a, b in zip(served, served[1:])]
    assert min(gaps) >= 0.95, gaps


def test_the_crawler_trap_is_bounded_by_the_depth_limit(sync_jobs, through_test_web):
    crawl = special_crawl(through_test_web, ["trap"], max_depth=4, page_budget=50)
    calendar = Target.objects.filter(crawl=crawl, url__contains="/calendar/")
    assert calendar.filter(state="done").count() <= 1 + 2 * 4 * 2
    assert crawl.state == Crawl.State.FINISHED and crawl.pages_fetched < 50


def test_re_harvest_asks_conditionally_and_keeps_the_unchanged_page(sync_jobs, through_test_web):
    crawl = special_crawl(through_test_web, ["conditional"], max_depth=0)
    first = target(crawl, through_test_web, "conditional")
    assert first.status_code == 200
    reharvest_crawl(crawl)
    again = target(crawl, through_test_web, "conditional")
    assert (again.state, again.status_code, again.page_id) == ("done", 304, first.page_id)


def test_two_urls_with_the_same_content_share_one_page(sync_jobs, through_test_web):
    crawl = special_crawl(through_test_web, ["redirect_chain", "redirect_chain_final"], max_depth=0)
    pages = {t.page_id for t in Target.objects.filter(crawl=crawl, page__isnull=False)}
    assert len(pages) == 1
    assert Page.objects.filter(crawl=crawl).count() == 1


@pytest.mark.parametrize("text_urls", [False, True])
def test_urls_written_in_a_plain_text_document_are_followed_when_the_crawl_enables_it(
        sync_jobs, through_test_web, text_urls):
    crawl = special_crawl(through_test_web, ["plain_text"], max_depth=1, page_budget=6,
                          config={"text_urls": text_urls})
    document = target(crawl, through_test_web, "plain_text")
    assert (document.state, document.page.content_type) == ("done", "text/plain")
    assert "Korisne adrese" in document.page.text  # plain text is stored as text either way
    written = {"http://www.problemi.rs/prekinuto.html", "http://www.problemi.rs/kesirano.html"}
    linked = set(Link.objects.filter(page=document.page, kind="text").values_list("target_url", flat=True))
    scheduled = set(Target.objects.filter(crawl=crawl, source_page=document.page).values_list("url", flat=True))
    if text_urls:
        assert written <= linked and written <= scheduled
    else:
        assert not linked and not scheduled


def test_a_crawl_config_with_a_wrong_text_urls_value_is_refused():
    from django.core.exceptions import ValidationError

    from crawlweb.services.crawl_config import CrawlConfig

    with pytest.raises(ValidationError, match="text_urls"):
        CrawlConfig.from_dict({"text_urls": "yes"})


def test_warc_files_hold_a_request_and_a_response_per_fetch(sync_jobs, through_test_web):
    from crawlweb.services.network import close_warc_writers

    crawl = Crawl.objects.create(name="warc", page_budget=12, follow_out_of_site=False)
    start_crawl(crawl, extra_urls=["http://www.primer.rs/"])
    close_warc_writers()
    files = list(Path(sync_jobs.WARC_DIR).rglob("*.warc.gz"))
    assert files
    kinds = {"request": 0, "response": 0}
    uris = set()
    for path in files:
        with open(path, "rb") as stream:
            for record in ArchiveIterator(stream):
                if record.rec_type in kinds:
                    kinds[record.rec_type] += 1
                    uris.add(record.rec_headers.get_header("WARC-Target-URI"))
    assert kinds["response"] >= 12 and kinds["request"] == kinds["response"]
    assert "http://www.primer.rs/" in uris
