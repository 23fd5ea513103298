"""Backlink providers: edge files, an HTTP JSON service (real servers on 127.0.0.1), rate limiting."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest

from frontier.backlinks.base import BacklinkProvider, ProviderError, RateLimited, TokenBucket, safe_backlinks
from frontier.backlinks.edge_file import EdgeFileProvider
from frontier.backlinks.http_json import HttpJsonProvider

# ---- edge files ------------------------------------------------------------------------------

EDGES = """# source<TAB>target
http://a.rs/links.html\thttp://hotel.rs/
http://b.com/partners.html    http://hotel.rs/en/index.html
http://c.org/x.html,http://hotel.rs/
this line is broken
http://d.net/y.html\tnot-a-url
http://e.net/z.html\thttp://hotel.rs/#top
http://a.rs/links.html\thttp://hotel.rs/
http://[broken/\thttp://hotel.rs/
"""


@pytest.fixture
def edge_file(tmp_path):
    path = tmp_path / "edges.txt"
    path.write_text(EDGES, encoding="utf-8")
    return path


def test_edge_file_answers_backlinks_of_a_url_from_tab_space_and_csv_lines(edge_file):
    provider = EdgeFileProvider(edge_file)
    assert provider.backlinks("http://hotel.rs/") == ["http://a.rs/links.html", "http://c.org/x.html", "http://e.net/z.html"]
    assert provider.backlinks("HTTP://HOTEL.RS/en/index.html#x") == ["http://b.com/partners.html"]
    assert provider.backlinks("http://nobody.rs/") == []


def test_edge_file_indexes_by_target_host(edge_file):
    provider = EdgeFileProvider(edge_file)
    assert set(provider.backlinks_to_host("hotel.rs")) == {
        "http://a.rs/links.html", "http://b.com/partners.html", "http://c.org/x.html", "http://e.net/z.html"
    }
    assert provider.backlinks_to_host("http://hotel.rs/whatever") == provider.backlinks_to_host("hotel.rs")


def test_edge_file_reports_bad_lines_by_number_and_keeps_the_rest(edge_file):
    provider = EdgeFileProvider(edge_file)
    assert [number for number, _ in provider.bad_lines] == [5, 6, 9]
    assert "expected 2 fields (source, target), found 4" in provider.bad_lines[0][1]
    assert "target is not an absolute http(s) URL" in provider.bad_lines[1][1]
    assert "source is not an absolute http(s) URL" in provider.bad_lines[2][1]
    assert provider.edges == 4  # the duplicate of line 2 counts once


def test_csv_edge_file_with_header(tmp_path):
    path = tmp_path / "edges.csv"
    path.write_text('source,target\n"http://x.rs/a,b.html",http://y.rs/\n', encoding="utf-8")
    provider = EdgeFileProvider(path)
    assert provider.backlinks("http://y.rs/") == ["http://x.rs/a,b.html"] and provider.bad_lines == []


def test_missing_edge_file_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="nothere.txt"):
        EdgeFileProvider(tmp_path / "nothere.txt")


def test_edge_file_refuses_a_relative_url_question(edge_file):
    with pytest.raises(ProviderError, match="not an absolute") as info:
        EdgeFileProvider(edge_file).backlinks("/relative")
    assert info.value.transient is False


# ---- HTTP JSON service ---------------------------------------------------------------------------


class Service(BaseHTTPRequestHandler):
    release = threading.Event()  # lets the hanging handler finish when the test is over
    requests_seen: list[str] = []

    def log_message(self, *args):
        pass

    def _send(self, status, body, content_type="application/json"):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        Service.requests_seen.append(self.path)
        parts = urlsplit(self.path)
        asked = parse_qs(parts.query).get("url", [""])[0]
        if parts.path == "/ok" or parts.hostname == "backlinks.test":  # the latter: asked as a proxy
            self._send(200, json.dumps({"backlinks": [f"http://linker.rs/to?{asked}", "http://other.rs/"]}))
        elif parts.path == "/fail":
            self._send(500, "internal error", "text/plain")
        elif parts.path == "/busy":
            self._send(429, "slow down", "text/plain")
        elif parts.path == "/gone":
            self._send(404, "no such service", "text/plain")
        elif parts.path == "/badjson":
            self._send(200, '{"backlinks": [')
        elif parts.path == "/wrongshape":
            self._send(200, json.dumps({"links": "http://x.rs/"}))
        elif parts.path == "/hang":
            Service.release.wait(5)
            self._send(200, json.dumps({"backlinks": []}))


@pytest.fixture(scope="module")
def service():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Service)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    Service.release.set()
    server.shutdown()
    server.server_close()


@pytest.fixture
def no_proxy(monkeypatch):
    for name in ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")


def test_http_service_backlinks_are_returned_and_the_url_is_encoded(service, no_proxy):
    provider = HttpJsonProvider(service + "/ok?url={url}", timeout=2, address_policy="loopback")
    links = provider.backlinks("http://hotel.rs/a b?x=1&y=2")
    assert links == ["http://linker.rs/to?http://hotel.rs/a b?x=1&y=2", "http://other.rs/"]
    assert "http%3A%2F%2Fhotel.rs%2Fa%20b%3Fx%3D1%26y%3D2" in Service.requests_seen[-1]


@pytest.mark.parametrize(
    "path, transient, message",
    [
        ("/fail", True, "HTTP 500"),
        ("/busy", True, "HTTP 429"),
        ("/gone", False, "HTTP 404"),
        ("/badjson", False, "invalid JSON"),
        ("/wrongshape", False, "lacks a 'backlinks' list"),
    ],
)
def test_http_service_failures_become_provider_errors(service, no_proxy, path, transient, message):
    provider = HttpJsonProvider(service + path + "?url={url}", timeout=2, address_policy="loopback")
    with pytest.raises(ProviderError, match=message) as info:
        provider.backlinks("http://hotel.rs/")
    assert info.value.transient is transient


def test_a_hanging_service_times_out_as_a_transient_error(service, no_proxy):
    provider = HttpJsonProvider(service + "/hang?url={url}", timeout=0.3, address_policy="loopback")
    links, error = safe_backlinks(provider, "http://hotel.rs/")
    assert links == [] and error.transient is True and "timed out" in str(error)


def test_an_unreachable_service_is_a_transient_error(no_proxy):
    provider = HttpJsonProvider("http://127.0.0.1:9/?url={url}", timeout=1,  # discard port: nobody listens
                                address_policy="loopback")
    links, error = safe_backlinks(provider, "http://hotel.rs/")
    assert links == [] and error.transient is True


def test_default_service_address_is_reached_through_the_proxy_from_the_environment(service, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", service)
    monkeypatch.setenv("http_proxy", service)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    links = HttpJsonProvider(timeout=2).backlinks("http://hotel.rs/")
    assert links[0] == "http://linker.rs/to?http://hotel.rs/"
    assert Service.requests_seen[-1].startswith("http://backlinks.test/?url=")  # absolute URI: a proxy request


def test_template_without_url_placeholder_is_refused():
    with pytest.raises(ValueError, match="{url}"):
        HttpJsonProvider("http://backlinks.test/")


# ---- never raising, rate limiting -----------------------------------------------------------------


class Broken(BacklinkProvider):
    name = "broken"

    def backlinks(self, url):
        raise RuntimeError("bug in a provider")


def test_safe_backlinks_never_raises_even_on_a_provider_bug():
    links, error = safe_backlinks(Broken(), "http://hotel.rs/")
    assert links == [] and isinstance(error, ProviderError) and "broken failed" in str(error)
    assert isinstance(error.__cause__, RuntimeError)


def test_safe_backlinks_passes_answers_through(edge_file):
    assert safe_backlinks(EdgeFileProvider(edge_file), "http://hotel.rs/en/index.html") == (["http://b.com/partners.html"], None)


class FakeTime:
    """Clock that only moves when slept on: counts waits instead of sleeping."""

    def __init__(self):
        self.now, self.sleeps = 100.0, []

    def clock(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds


def test_one_bucket_shared_by_two_providers_limits_their_calls_together(edge_file, tmp_path):
    time = FakeTime()
    bucket = TokenBucket(rate=2.0, capacity=1, clock=time.clock, sleep=time.sleep)  # 2 calls per second
    first = RateLimited(EdgeFileProvider(edge_file), bucket)
    other_file = tmp_path / "other.txt"
    other_file.write_text("http://q.rs/\thttp://hotel.rs/\n", encoding="utf-8")
    second = RateLimited(EdgeFileProvider(other_file), bucket)
    for provider in (first, second, first, second, first):
        provider.backlinks("http://hotel.rs/")
    assert len(time.sleeps) == 4  # the first call is free, each next one waits its turn
    assert sum(time.sleeps) == pytest.approx(2.0)  # 4 more calls at 2 per second
    assert second.backlinks("http://hotel.rs/") == ["http://q.rs/"]


def test_bucket_allows_a_burst_then_refuses_without_waiting():
    time = FakeTime()
    bucket = TokenBucket(rate=1.0, capacity=3, clock=time.clock, sleep=time.sleep)
    assert [bucket.try_acquire() for _ in range(4)] == [True, True, True, False]
    time.now += 1.0
    assert bucket.try_acquire() is True and time.sleeps == []


def test_bucket_refuses_bad_settings():
    with pytest.raises(ValueError, match="rate"):
        TokenBucket(rate=0)
    with pytest.raises(ValueError, match="capacity"):
        TokenBucket(rate=1, capacity=0.5)
