"""Serve the charset corpus over HTTP on loopback and read it back as the crawler does.

Each served page (charset_corpus.Served) is at http://127.0.0.1:<port>/<mode>/<id> with its mode's
Content-Type header. `read_as_crawler` fetches it with the crawler's Fetcher and decodes it on the
crawler's own path: a body the crawler does not take for HTML or text is never decoded (a UTF-16 page
taken for binary counts as wrong), the rest goes through charset.decode_response with the header
as received. Used by bench/charsets.py and tests/crawler/test_charset_corpus.py.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from crawlweb.crawler.charset import decode_response
from crawlweb.crawler.fetch import Fetcher, classify_content

from .charset_corpus import Served


@dataclass(frozen=True)
class CrawlerReading:
    text: str | None   # None: the crawler did not take the body for a page
    codec: str         # the codec it decoded with, or why it did not decode ("not html: ...")
    seconds: float     # time spent in decoding alone


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else the client's delayed ACK adds ~40 ms to every small page

    def log_message(self, *args) -> None:  # the bench prints its own figures
        pass

    def do_GET(self) -> None:
        served = self.server.pages.get(self.path)
        if served is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", served.content_type)
        self.send_header("Content-Length", str(len(served.body)))
        self.end_headers()
        self.wfile.write(served.body)


class CharsetCorpusServer:
    """A loopback HTTP server for a list of served pages; use as a context manager."""

    def __init__(self, served: list[Served]):
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self._server.pages = {self.path(item): item for item in served}
        self._thread = threading.Thread(target=self._server.serve_forever, name="charset-corpus", daemon=True)

    @staticmethod
    def path(served: Served) -> str:
        return f"/{served.mode}/{served.page.id}"

    def url(self, served: Served) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}{self.path(served)}"

    def __enter__(self) -> "CharsetCorpusServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def loopback_fetcher() -> Fetcher:
    return Fetcher("CharsetCorpusCheck/1.0", address_policy="loopback", max_bytes=10 * 1024 * 1024)


def read_as_crawler(fetcher: Fetcher, url: str) -> CrawlerReading:
    result = fetcher.fetch(url)
    if not result.ok:
        return CrawlerReading(None, f"fetch failed: {result.error_kind or result.status}", 0.0)
    refused = classify_content(result)
    if refused is not None:
        return CrawlerReading(None, f"not html: {refused}", 0.0)
    started = time.perf_counter()
    text, codec = decode_response(result.body, result.headers.get("content-type", ""))
    return CrawlerReading(text, codec, time.perf_counter() - started)
