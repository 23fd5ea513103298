import socket
from concurrent.futures import ThreadPoolExecutor

import pytest

from crawlweb.crawler import fetch as F
from crawlweb.crawler.fetch import Fetcher, backoff_seconds, classify_content, is_transient, retry_after_seconds

from .conftest import BIG_BODY, SERBIAN_PAGE

pytestmark = pytest.mark.usefixtures("no_proxy_env")
UA = "CrawlwebBot/0.1 (+https://example.org/bot)"


@pytest.fixture
def fetcher():
    with Fetcher(UA, address_policy="loopback", connect_timeout=2, read_timeout=5) as f:
        yield f


def test_a_page_is_fetched_with_status_headers_and_body(web, fetcher):
    result = fetcher.fetch(f"{web.base}/page")
    assert result.ok and result.status == 200
    assert result.body.decode("utf-8") == SERBIAN_PAGE
    assert result.headers["content-type"] == "text/html; charset=utf-8"
    assert result.final_url == f"{web.base}/page"
    assert result.redirects == [] and not result.truncated and result.error_kind is None
    assert result.elapsed_s > 0 and result.fetched_at > 1.7e9


def test_the_user_agent_is_sent(web, fetcher):
    fetcher.fetch(f"{web.base}/page?ua-check")
    sent = [headers for method, path, headers in web.seen if path == "/page?ua-check"]
    assert sent[-1]["User-Agent"] == UA


def test_the_operators_netrc_credentials_are_never_sent(web, fetcher, tmp_path, monkeypatch):
    netrc = tmp_path / "netrc"
    netrc.write_text("machine 127.0.0.1 login operator password secret\n")
    netrc.chmod(0o600)
    monkeypatch.setenv("NETRC", str(netrc))
    fetcher.fetch(f"{web.base}/page?netrc-check")
    sent = [headers for method, path, headers in web.seen if path == "/page?netrc-check"]
    assert sent and "Authorization" not in sent[-1]


def test_a_redirect_chain_is_followed_and_every_hop_recorded(web, fetcher):
    result = fetcher.fetch(f"{web.base}/r1")
    assert result.status == 200 and result.final_url == f"{web.base}/page"
    assert result.redirects == [(f"{web.base}/r1", f"{web.base}/r2", 301),
                                (f"{web.base}/r2", f"{web.base}/page", 302)]
    assert [ex.status for ex in result.exchanges] == [301, 302, 200]


def test_redirect_hops_wait_the_host_interval_like_any_other_request(web, fetcher):
    before = len(web.times)
    result = fetcher.fetch(f"{web.base}/r1", hop_interval=0.2)
    assert result.status == 200 and len(result.redirects) == 2
    arrivals = web.times[before:]
    assert len(arrivals) == 3
    assert min(b - a for a, b in zip(arrivals, arrivals[1:])) >= 0.2


def test_connections_are_pooled_across_fetches_and_redirect_hops(web, fetcher):
    before = len(web.ports)
    for i in range(4):
        assert fetcher.fetch(f"{web.base}/r-body?{i}").status == 200
    ports = web.ports[before:]
    assert len(ports) == 8 and len(set(ports)) == 1


def test_a_redirect_loop_is_detected(web, fetcher):
    result = fetcher.fetch(f"{web.base}/loop-a")
    assert result.error_kind == F.REDIRECT_LOOP
    assert len(result.redirects) == 2


def test_too_many_redirects_stop_at_the_limit(web):
    with Fetcher(UA, address_policy="loopback", max_redirects=3) as fetcher:
        assert fetcher.fetch(f"{web.base}/chain/3").status == 200
        result = fetcher.fetch(f"{web.base}/chain/4")
    assert result.error_kind == F.TOO_MANY_REDIRECTS
    assert len(result.redirects) == 3 and result.status == 302


def test_a_cookie_set_during_a_redirect_is_sent_on_the_next_hop_only(web, fetcher):
    result = fetcher.fetch(f"{web.base}/cookie-check")
    assert result.status == 200 and b"cookie ok" in result.body
    again = fetcher.fetch(f"{web.base}/cookie-check")  # no cookie carried over between fetches
    assert len(again.redirects) == 1


def test_bodies_over_the_cap_are_cut_and_marked(web):
    with Fetcher(UA, address_policy="loopback", max_bytes=100_000) as fetcher:
        result = fetcher.fetch(f"{web.base}/big")
    assert result.truncated and result.error_kind == F.TOO_LARGE
    assert result.body == BIG_BODY[:100_000]
    assert result.status == 200


def test_gzip_bodies_are_decoded_and_the_wire_bytes_kept(web, fetcher):
    result = fetcher.fetch(f"{web.base}/gzip")
    assert result.body.decode("utf-8") == SERBIAN_PAGE
    assert result.exchanges[-1].raw_body[:2] == b"\x1f\x8b"


@pytest.mark.parametrize("path", ["/deflate-zlib", "/deflate-raw"])
def test_both_kinds_of_deflate_bodies_are_decoded(web, fetcher, path):
    assert fetcher.fetch(f"{web.base}{path}").body.decode("utf-8") == SERBIAN_PAGE


def test_a_body_that_is_not_really_gzip_is_kept_as_received(web, fetcher):
    result = fetcher.fetch(f"{web.base}/bad-gzip")
    assert result.status == 200 and result.body == b"\x1f\x8bnot really gzip"
    assert "cannot decode gzip" in result.error


def test_chunked_bodies_are_read_whole(web, fetcher):
    assert fetcher.fetch(f"{web.base}/chunked").body == b"<p>first second</p>"


def test_a_slow_server_times_out(web):
    with Fetcher(UA, address_policy="loopback", read_timeout=0.2) as fetcher:
        result = fetcher.fetch(f"{web.base}/slow")
    assert result.error_kind == F.TIMEOUT
    assert is_transient(result.error_kind, result.status)


def test_a_closed_port_is_refused():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with Fetcher(UA, address_policy="loopback") as fetcher:
        result = fetcher.fetch(f"http://127.0.0.1:{port}/")
    assert result.error_kind == F.REFUSED and result.status is None
    assert is_transient(result.error_kind, result.status)


def test_an_unknown_host_without_proxy_is_a_dns_error(fetcher):
    result = fetcher.fetch("http://no-such-host.invalid/")
    assert result.error_kind == F.DNS
    assert not is_transient(result.error_kind, result.status)


def test_conditional_get_returns_304_when_unchanged(web, fetcher):
    first = fetcher.fetch(f"{web.base}/etag")
    assert first.status == 200 and first.headers["etag"] == '"v1"'
    again = fetcher.fetch(f"{web.base}/etag", etag=first.headers["etag"],
                          last_modified=first.headers["last-modified"])
    assert again.status == 304 and again.error_kind is None and again.body == b""
    sent = [h for m, p, h in web.seen if p == "/etag"][-1]
    assert sent["If-None-Match"] == '"v1"' and sent["If-Modified-Since"] == "Sun, 01 Nov 2026 10:00:00 GMT"


def test_head_falls_back_to_get_when_head_is_not_allowed(web, fetcher):
    result = fetcher.head(f"{web.base}/nohead")
    assert result.status == 200
    assert [ex.method for ex in result.exchanges] == ["GET"]
    plain = fetcher.head(f"{web.base}/page")
    assert plain.status == 200 and plain.body == b"" and plain.exchanges[0].method == "HEAD"


def test_http_errors_are_classified_and_retry_after_is_read(web, fetcher):
    missing = fetcher.fetch(f"{web.base}/missing")
    assert missing.status == 404 and missing.error_kind == F.HTTP_ERROR
    assert not is_transient(missing.error_kind, missing.status)
    busy = fetcher.fetch(f"{web.base}/unavailable")
    assert busy.status == 503 and is_transient(busy.error_kind, busy.status)
    assert retry_after_seconds(busy.headers) == 120.0


def test_non_html_content_is_classified(web, fetcher):
    assert classify_content(fetcher.fetch(f"{web.base}/page")) is None
    assert classify_content(fetcher.fetch(f"{web.base}/pdf")) == F.NOT_HTML


def test_non_http_urls_are_invalid(fetcher):
    assert fetcher.fetch("ftp://127.0.0.1/file").error_kind == F.INVALID_URL
    assert fetcher.fetch("not a url").error_kind == F.INVALID_URL


def test_environment_proxy_is_honoured_for_unresolvable_hosts(proxy, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    with Fetcher(UA, address_policy="public") as fetcher:
        assert fetcher.is_proxied("http://site-a.test/sr/")
        result = fetcher.fetch("http://site-a.test/sr/index.html")
    assert result.status == 200
    assert b"via proxy: http://site-a.test/sr/index.html" in result.body
    assert "http://site-a.test/sr/index.html" in proxy.seen


def test_no_proxy_sends_the_request_directly(proxy, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    monkeypatch.setenv("NO_PROXY", "site-b.test")
    with Fetcher(UA, address_policy="public") as fetcher:
        assert not fetcher.is_proxied("http://site-b.test/")
        result = fetcher.fetch("http://site-b.test/")
    assert result.error_kind == F.DNS
    assert "http://site-b.test/" not in proxy.seen


def test_one_fetcher_serves_many_threads(web, fetcher):
    urls = [f"{web.base}/page?n={i}" for i in range(24)] + [f"{web.base}/r1"] * 8
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(fetcher.fetch, urls))
    assert all(r.status == 200 and r.body.decode() == SERBIAN_PAGE for r in results)
    assert [r.requested_url for r in results] == urls


@pytest.mark.parametrize("kind, status, transient", [
    (F.TIMEOUT, None, True), (F.CONNECTION, None, True), (F.REFUSED, None, True), (F.DNS_TEMPORARY, None, True),
    (F.HTTP_ERROR, 500, True), (F.HTTP_ERROR, 503, True), (F.HTTP_ERROR, 429, True),
    (F.HTTP_ERROR, 404, False), (F.HTTP_ERROR, 403, False), (F.REDIRECT_LOOP, 302, False),
    (F.PRIVATE_ADDRESS, None, False), (F.TOO_LARGE, 200, False), (F.NOT_HTML, 200, False), (F.DNS, None, False),
    (None, 200, False),
])
def test_transient_failures_are_told_from_permanent_ones(kind, status, transient):
    assert is_transient(kind, status) is transient


def test_backoff_grows_exponentially_up_to_the_cap():
    delays = [backoff_seconds(n, base=10, cap=300) for n in range(1, 8)]
    assert delays == [10, 20, 40, 80, 160, 300, 300]
    with pytest.raises(ValueError, match="attempt counts from 1"):
        backoff_seconds(0)


def test_a_fetcher_without_a_user_agent_or_with_an_unknown_policy_is_refused():
    with pytest.raises(ValueError, match="user_agent is empty"):
        Fetcher(" ")
    with pytest.raises(ValueError, match="unknown address policy"):
        Fetcher(UA, address_policy="anything")
