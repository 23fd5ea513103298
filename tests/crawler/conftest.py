"""Real HTTP servers on 127.0.0.1 for the fetch, address and WARC tests: a small site with redirects,
big, slow, gzip, conditional and HEAD-less pages, and a proxy-like server that answers absolute-URI
requests for made-up hosts (as the project's test web does)."""
from __future__ import annotations

import gzip
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import pytest

BIG_BODY = (b"<html><body>" + b"<p>velika strana, big page</p>\n" * 70000 + b"</body></html>")
SERBIAN_PAGE = "<html><head><title>Početna</title></head><body><p>Dobro došli! čćđšž</p></body></html>"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "TestWeb/1.0"

    def log_message(self, *args):  # keep pytest output clean
        pass

    def _send(self, status, body=b"", headers=(), content_type="text/html; charset=utf-8"):
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _redirect(self, location, status=302):
        self._send(status, b"", [("Location", location)])

    def do_HEAD(self):
        if self.path == "/nohead":
            return self._send(405, b"", [("Allow", "GET")])
        return self.do_GET()

    def do_GET(self):
        self.server.seen.append((self.command, self.path, dict(self.headers)))
        self.server.ports.append(self.client_address[1])
        self.server.times.append(time.monotonic())
        path = urlsplit(self.path).path  # route on the path; the query only makes URLs distinct
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        if path == "/page" or path == "/nohead":
            return self._send(200, SERBIAN_PAGE.encode("utf-8"))
        if path == "/r1":
            return self._redirect("/r2", 301)
        if path == "/r-body":
            return self._send(301, b"<html><body>Moved <a href='/page'>here</a></body></html>", [("Location", "/page")])
        if path == "/r2":
            return self._redirect(f"{base}/page", 302)
        if path == "/loop-a":
            return self._redirect("/loop-b")
        if path == "/loop-b":
            return self._redirect("/loop-a")
        if path.startswith("/chain/"):
            n = int(path.rsplit("/", 1)[1])
            return self._redirect(f"/chain/{n - 1}") if n > 0 else self._send(200, b"<p>end of chain</p>")
        if path == "/to-private":
            return self._redirect("http://10.0.0.1/secret")
        if path == "/big":
            return self._send(200, BIG_BODY)
        if path == "/gzip":
            body = gzip.compress(SERBIAN_PAGE.encode("utf-8"))
            return self._send(200, body, [("Content-Encoding", "gzip")])
        if path in ("/deflate-zlib", "/deflate-raw"):
            packer = zlib.compressobj(wbits=15 if path == "/deflate-zlib" else -15)
            body = packer.compress(SERBIAN_PAGE.encode("utf-8")) + packer.flush()
            return self._send(200, body, [("Content-Encoding", "deflate")])
        if path == "/bad-gzip":
            return self._send(200, b"\x1f\x8bnot really gzip", [("Content-Encoding", "gzip")])
        if path == "/chunked":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for piece in (b"<p>first ", b"second</p>"):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.write(b"0\r\n\r\n")
            return None
        if path == "/slow":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.write(b"<p>")
            self.wfile.flush()
            time.sleep(1.0)
            return None
        if path == "/etag":
            if self.headers.get("If-None-Match") == '"v1"':
                return self._send(304, b"", [("ETag", '"v1"')], content_type=None)
            return self._send(200, b"<p>versioned</p>", [("ETag", '"v1"'),
                                                          ("Last-Modified", "Sun, 01 Nov 2026 10:00:00 GMT")])
        if path == "/cookie-check":
            if "seen=1" in (self.headers.get("Cookie") or ""):
                return self._send(200, b"<p>cookie ok</p>")
            return self._send(302, b"", [("Location", "/cookie-check"), ("Set-Cookie", "seen=1; Path=/")])
        if path == "/pdf":
            return self._send(200, b"%PDF-1.4 ...", content_type="application/pdf")
        if path == "/unavailable":
            return self._send(503, b"busy", [("Retry-After", "120")])
        return self._send(404, b"<p>not found</p>")


class _ProxyHandler(BaseHTTPRequestHandler):
    """Answers absolute-URI requests (what a client sends to an HTTP proxy) for made-up hosts."""
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.server.seen.append(self.path)
        url = urlsplit(self.path)
        if not url.scheme:
            body, status, headers = b"not a proxy request", 400, []
        elif url.path == "/to-loopback":
            body, status, headers = b"", 302, [("Location", self.server.loopback_target)]
        else:
            body = f"<p>via proxy: {self.path}</p>".encode()
            status, headers = 200, []
        self.send_response(status)
        self.send_header("Content-Type", "text/html")
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # the crawler hangs up on purpose (size cap, timeouts): not an error of the test web


def _serve(handler):
    server = _QuietServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    server.seen = []
    server.ports = []  # client port per request: tells connection reuse
    server.times = []  # monotonic time each request arrived: tells the pace of redirect hops
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server


@pytest.fixture(scope="session")
def web():
    server = _serve(_Handler)
    server.base = f"http://127.0.0.1:{server.server_address[1]}"
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def proxy(web):
    server = _serve(_ProxyHandler)
    server.url = f"http://127.0.0.1:{server.server_address[1]}"
    server.loopback_target = f"{web.base}/page"
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def no_proxy_env(monkeypatch):
    """Tests that talk to 127.0.0.1 directly must not be routed through a proxy set in the environment."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy",
                 "NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
