"""The hostile web site (crawlweb/testweb/hostile.py) through the real fetcher, over HTTP on 127.0.0.1:
each case ends in a named error kind, or in a page whose parse is bounded, within a bounded time."""
from __future__ import annotations

import time

import pytest

from crawlweb.crawler.fetch import TIMEOUT, TOO_LARGE, Fetcher
from crawlweb.crawler.htmlparse import MAX_LINKS_PER_PAGE, parse_html
from crawlweb.crawler.robots import MAX_ROBOTS_BYTES, PARSED, RobotsPolicy
from crawlweb.crawler.urls import normalize_url, validate_url
from crawlweb.testweb.generator import generate_web
from crawlweb.testweb.hostile import (HOMOGRAPH_HOSTS, HOSTILE_HOST, HOSTILE_PATHS, ROBOTS_BINARY_HOST,
                                      ROBOTS_HUGE_HOST, gzip_bomb)
from crawlweb.testweb.server import TestWebServer

MAX_BYTES = 2 * 1024 * 1024
DEADLINE_S = 4.0


@pytest.fixture(scope="module")
def server():
    gzip_bomb()  # built once, before any deadline runs (it takes the server a few seconds)
    with TestWebServer(generate_web(seed=3, size=8, pages_per_site=4)) as running:
        yield running


@pytest.fixture
def fetcher(server, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", server.proxy_url)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    with Fetcher("hostile-test/1.0", read_timeout=3.0, total_timeout=DEADLINE_S, max_bytes=MAX_BYTES) as f:
        yield f


def _url(case: str) -> str:
    return f"http://{HOSTILE_HOST}{HOSTILE_PATHS[case]}"


def _timed_fetch(fetcher, url):
    started = time.monotonic()
    result = fetcher.fetch(url)
    return result, time.monotonic() - started


def test_a_body_that_never_ends_is_cut_at_the_size_cap(fetcher):
    result, elapsed = _timed_fetch(fetcher, _url("never_ending"))
    assert result.error_kind == TOO_LARGE
    assert len(result.body) == MAX_BYTES
    assert elapsed < DEADLINE_S + 1


def test_a_slow_loris_server_meets_the_whole_response_deadline(fetcher):
    # One byte a second: every read is within the 3 s read timeout, only the 4 s deadline ends it.
    result, elapsed = _timed_fetch(fetcher, _url("slow_loris"))
    assert result.error_kind == TIMEOUT
    assert "within" in result.error
    assert DEADLINE_S - 0.5 < elapsed < DEADLINE_S + 3.5
    assert 0 < len(result.body) < 20


def test_a_gzip_bomb_is_decoded_no_further_than_the_cap(fetcher):
    result, elapsed = _timed_fetch(fetcher, _url("gzip_bomb"))
    assert result.error_kind == TOO_LARGE
    assert len(result.body) == MAX_BYTES
    assert len(result.exchanges[0].raw_body) < MAX_BYTES  # the wire bytes were far fewer
    assert elapsed < DEADLINE_S + 1


def test_html_nested_a_hundred_thousand_deep_parses_without_error(fetcher):
    result = fetcher.fetch(_url("deep_nesting"))
    assert result.ok
    page = parse_html(result.body.decode("utf-8"), result.final_url)
    assert page.title == "Duboko"


def test_a_page_of_a_million_links_keeps_a_bounded_number(fetcher):
    result = fetcher.fetch(_url("million_links"))
    assert result.error_kind == TOO_LARGE  # a million links do not fit in the cap either
    page = parse_html(result.body.decode("utf-8", "replace"), result.final_url)
    assert len(page.links) == MAX_LINKS_PER_PAGE
    assert page.links_dropped > 50_000
    assert page.links[0].url == f"http://{HOSTILE_HOST}/l/0"


def test_urls_of_100_kb_are_parsed_but_never_scheduled(fetcher):
    result = fetcher.fetch(_url("long_urls"))
    links = parse_html(result.body.decode("utf-8"), result.final_url).links
    assert len(links) == 3 and all(len(link.url) > 100_000 for link in links)
    for link in links:
        assert "over the limit of 250" in validate_url(link.url, max_length=250)


def test_a_url_of_100_kb_fetched_anyway_is_a_named_http_error(fetcher):
    result = fetcher.fetch(f"http://{HOSTILE_HOST}/dugo/" + "a" * 100_000)
    assert result.error_kind is not None and result.status in (None, 400, 414, 431)


def test_javascript_data_mailto_and_file_links_are_never_followed(fetcher, server):
    result = fetcher.fetch(_url("other_schemes"))
    links = [link.url for link in parse_html(result.body.decode("utf-8"), result.final_url).links]
    assert not any(url.startswith(("javascript:", "data:", "mailto:", "tel:", "file:")) for url in links)
    for url in links:  # what is left (ftp:, the home page) passes validation only when http(s)
        assert (validate_url(url) is None) == url.startswith("http://")
    assert not any("__fetched" in r.url or r.url.startswith(("data:", "file:")) for r in server.requests)


def test_idn_homographs_are_stored_as_punycode(fetcher):
    result = fetcher.fetch(_url("homographs"))
    links = parse_html(result.body.decode("utf-8"), result.final_url).links
    stored = [normalize_url(link.url) for link in links]
    assert len(stored) == len(HOMOGRAPH_HOSTS)
    assert all("xn--" in url and url.isascii() for url in stored)
    assert "http://www.xn--primr-2we.rs/" in stored  # not www.primer.rs, the Latin name it imitates


def test_a_robots_txt_of_50_mb_is_read_only_up_to_the_limit(fetcher):
    result = fetcher.fetch(f"http://{ROBOTS_HUGE_HOST}/robots.txt")
    assert result.error_kind == TOO_LARGE and len(result.body) == MAX_BYTES
    policy = RobotsPolicy.from_response(result.status, result.body)
    assert policy.mode == PARSED and policy.truncated and len(policy.text) <= MAX_ROBOTS_BYTES
    assert not policy.allows(f"http://{ROBOTS_HUGE_HOST}/privatno/x.html", "hostile-test")
    assert policy.allows(f"http://{ROBOTS_HUGE_HOST}/javno.html", "hostile-test")


def test_a_binary_robots_txt_is_parsed_without_error(fetcher):
    result = fetcher.fetch(f"http://{ROBOTS_BINARY_HOST}/robots.txt")
    assert result.ok
    policy = RobotsPolicy.from_response(result.status, result.body)
    assert policy.mode == PARSED
    policy.allows(f"http://{ROBOTS_BINARY_HOST}/", "hostile-test")  # answers, whatever it decides


def test_session_ids_in_paths_and_query_permutations_make_new_urls_forever(fetcher):
    # The traps are real: every page leads to URLs never seen before (the crawl's depth and budget cap them).
    for case in ("session_paths", "query_permutations"):
        seen = {_url(case)}
        frontier = [_url(case)]
        for _ in range(3):
            result = fetcher.fetch(frontier.pop(0))
            assert result.ok
            new = [link.url for link in parse_html(result.body.decode("utf-8"), result.final_url).links
                   if link.url not in seen]
            assert new
            seen.update(new)
            frontier.extend(new)
