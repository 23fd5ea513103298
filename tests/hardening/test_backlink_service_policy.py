"""The HTTP backlink service is reached like every page: under the crawl's address policy at every
redirect hop, with a cap on the answer's size, and its errors never copy the answer's body."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import pytest

from frontier.backlinks.base import ProviderError
from frontier.backlinks.http_json import MAX_ANSWER_BYTES, HttpJsonProvider

SECRET = "internal-token-5f3a"


class Service(BaseHTTPRequestHandler):
    port = 0

    def log_message(self, *args):
        pass

    def _send(self, status, body: bytes, headers=()):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        parts = urlsplit(self.path)
        if parts.path == "/to-loopback":  # asked through the proxy as http://backlinks.test/to-loopback
            self._send(302, b"", [("Location", f"http://127.0.0.1:{Service.port}/ok")])
        elif parts.path == "/ok":
            self._send(200, json.dumps({"backlinks": ["http://linker.rs/"], "note": SECRET}).encode())
        elif parts.path == "/huge":
            self._send(200, b'{"backlinks": ["' + b"a" * (MAX_ANSWER_BYTES + 10) + b'"]}')
        elif parts.path == "/wrongshape":
            self._send(200, json.dumps({"links": SECRET}).encode())
        elif parts.path == "/error":
            self._send(500, json.dumps({"trace": SECRET}).encode())


@pytest.fixture(scope="module")
def service():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Service)
    server.daemon_threads = True
    Service.port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{Service.port}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def through_proxy(service, monkeypatch):
    """The service stands behind the environment's proxy as backlinks.test (public as far as we can see)."""
    for name in ("HTTP_PROXY", "http_proxy"):
        monkeypatch.setenv(name, service)
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)


def test_a_service_on_loopback_is_refused_under_the_public_policy(service, monkeypatch):
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    with pytest.raises(ProviderError, match="loopback address") as info:
        HttpJsonProvider(service + "/ok?url={url}", timeout=2, address_policy="public").backlinks("http://hotel.rs/")
    assert info.value.transient is False


def test_a_redirect_to_loopback_is_refused_under_the_public_policy(through_proxy):
    provider = HttpJsonProvider("http://backlinks.test/to-loopback?url={url}", timeout=2, address_policy="public")
    with pytest.raises(ProviderError, match="127.0.0.1 is a loopback address") as info:
        provider.backlinks("http://hotel.rs/")
    assert info.value.transient is False


def test_the_loopback_policy_lets_the_same_redirect_through(through_proxy):
    provider = HttpJsonProvider("http://backlinks.test/to-loopback?url={url}", timeout=2, address_policy="loopback")
    assert provider.backlinks("http://hotel.rs/") == ["http://linker.rs/"]


def test_an_answer_over_the_size_cap_is_refused(service, monkeypatch):
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    provider = HttpJsonProvider(service + "/huge?url={url}", timeout=2, address_policy="loopback")
    with pytest.raises(ProviderError, match=f"larger than {MAX_ANSWER_BYTES} bytes"):
        provider.backlinks("http://hotel.rs/")


@pytest.mark.parametrize("path", ["/wrongshape", "/error"])
def test_an_error_names_the_problem_without_the_answers_body(service, monkeypatch, path):
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    provider = HttpJsonProvider(service + path + "?url={url}", timeout=2, address_policy="loopback")
    with pytest.raises(ProviderError) as info:
        provider.backlinks("http://hotel.rs/")
    assert SECRET not in str(info.value)
