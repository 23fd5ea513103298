"""A loopback HTTP proxy that serves the test web.

Clients reach it as a plain-http forward proxy (HTTP_PROXY=http://127.0.0.1:PORT): the request
line carries the absolute URL (`GET http://www.primer.rs/sr/ HTTP/1.1`). An origin-form request
(`GET /sr/` with `Host: www.primer.rs`) works too. CONNECT (https tunnels) is refused with 501:
the test web is plain http only. Hosts outside the test web get 502 Bad Gateway, as a proxy
that cannot reach them would answer.

Every request is logged (`requests`) with monotonic start/end times, so tests can check
per-host politeness and that no URL was fetched twice at the same time.
"""

from __future__ import annotations

import sys
import threading
import time
import traceback
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from .generator import TestWeb
from .responses import REASONS, Response, error_page

_DISCONNECTS = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError)


SETTLE_S = 0.5  # how long a look at the request log waits for responses being sent


@dataclass(frozen=True)
class RequestRecord:
    """One request the server answered (or began to answer)."""

    monotonic: float       # time.monotonic() when the request line was read
    monotonic_end: float   # when the answer was sent (or the client went away)
    wall: float            # time.time() at the start
    method: str
    url: str               # absolute URL
    host: str
    status: int
    client: tuple[str, int]
    bytes_sent: int
    completed: bool        # False when the client disconnected mid-body


class _ProxyHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "TestWebProxy/1.0"
    timeout = 60  # idle keep-alive connections end instead of holding a thread forever
    # Headers and body go out in separate writes; without TCP_NODELAY the client's delayed
    # ACK adds ~40 ms to every small page.
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass  # the structured log in TestWebServer.requests replaces stderr lines

    def do_GET(self) -> None:
        self._answer()

    do_HEAD = do_POST = do_PUT = do_DELETE = do_OPTIONS = do_PATCH = do_GET

    def do_CONNECT(self) -> None:
        self._answer(forced=error_page(501, "CONNECT is not supported: the test web is plain http"))

    def _target_url(self) -> str | None:
        if self.path.lower().startswith("http://") or self.path.lower().startswith("https://"):
            return self.path
        host = self.headers.get("Host")
        if not host or not self.path.startswith("/"):
            return None
        return f"http://{host}{self.path}"

    def _answer(self, forced: Response | None = None) -> None:
        started, wall = time.monotonic(), time.time()
        url = self._target_url() or self.path
        response = forced
        if response is None and self._target_url() is None:
            response = error_page(400, "absolute-form request line or a Host header is required")
        if response is None:
            try:
                response = self.server.web.respond(self.command, url, dict(self.headers.items()))
            except Exception:  # a bug in the web must not kill the server thread
                traceback.print_exc(file=sys.stderr)
                response = error_page(500, "the test web failed on this request")
        self._discard_request_body()
        if response.delay_s > 0:
            time.sleep(response.delay_s)
        sent, completed = 0, True
        self.server.sending()  # from here the client may have its answer before the record is in the log
        try:
            self.send_response(response.status, REASONS.get(response.status))
            headers = dict(response.headers)
            if isinstance(response.body, bytes) and response.status != 304:
                headers.setdefault("Content-Length", str(len(response.body)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            if self.command != "HEAD" and response.status != 304:
                chunks = [response.body] if isinstance(response.body, bytes) else response.body
                for chunk in chunks:
                    self.wfile.write(chunk)
                    sent += len(chunk)
            self.wfile.flush()
        except _DISCONNECTS:
            completed = False
            self.close_connection = True
        finally:
            if not isinstance(response.body, bytes) and hasattr(response.body, "close"):
                response.body.close()
            self.server.record(RequestRecord(
                monotonic=started, monotonic_end=time.monotonic(), wall=wall, method=self.command,
                url=url, host=(urlsplit(url).hostname or "").lower(), status=response.status,
                client=tuple(self.client_address[:2]), bytes_sent=sent, completed=completed))

    def _discard_request_body(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length > 0:
            self.rfile.read(length)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # socketserver's listen backlog is 5: under a crawl's burst of connections (fetch threads, deep-page
    # HEADs) the kernel dropped SYNs past it, and each dropped connect waited out the 1 s SYN retry (397
    # drops in one 100,000-page bench; deep checks spent most of their time in connect). A web server
    # keeps a backlog of hundreds (nginx 511); so does this stand-in.
    request_queue_size = 1024

    def __init__(self, address, web: TestWeb, recorder, sending):
        super().__init__(address, _ProxyHandler)
        self.web = web
        self.record, self.sending = recorder, sending

    def handle_error(self, request, client_address) -> None:
        # A client that goes away is normal for a crawler test; anything else is reported.
        if isinstance(sys.exc_info()[1], _DISCONNECTS):
            return
        super().handle_error(request, client_address)


class TestWebServer:
    """Serve `web` (and optionally real sites) as an HTTP proxy on a loopback port."""

    __test__ = False  # not a pytest test class

    def __init__(self, web: TestWeb, host: str = "127.0.0.1", port: int = 0,
                 real_sites_dir: str | Path | None = None, max_log_entries: int = 1_000_000):
        self.web = web.with_real_sites(real_sites_dir) if real_sites_dir is not None else web
        self.host, self._requested_port = host, port
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        # Bounded, so a demo left running for days does not grow without end.
        self._log: deque[RequestRecord] = deque(maxlen=max_log_entries)
        self._log_lock = threading.Condition()
        self._sending = 0  # responses going out whose record is not in the log yet

    # ---- lifecycle ---------------------------------------------------------------------
    def start(self) -> "TestWebServer":
        if self._server is not None:
            raise RuntimeError("the test web server is already running")
        self._server = _Server((self.host, self._requested_port), self.web, self._record, self._note_sending)
        self._thread = threading.Thread(target=self._server.serve_forever, name="testweb-proxy",
                                        kwargs={"poll_interval": 0.1}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
        self._server = self._thread = None

    def __enter__(self) -> "TestWebServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the test web server is not running: call start() first")
        return self._server.server_address[1]

    @property
    def proxy_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def truth(self) -> dict:
        """The ground truth of everything served, real sites included."""
        return self.web.truth()

    # ---- request log -------------------------------------------------------------------
    def _note_sending(self) -> None:
        with self._log_lock:
            self._sending += 1

    def _record(self, record: RequestRecord) -> None:
        with self._log_lock:
            self._log.append(record)
            self._sending -= 1
            self._log_lock.notify_all()

    @property
    def requests(self) -> list[RequestRecord]:
        """A snapshot of the request log, oldest first. A request is logged once its response went
        out, so a client can have its answer a moment before; the snapshot waits (at most
        SETTLE_S: a streamed body may take long) for responses being sent to be logged."""
        with self._log_lock:
            self._log_lock.wait_for(lambda: self._sending == 0, timeout=SETTLE_S)
            return list(self._log)

    def clear_log(self) -> None:
        with self._log_lock:
            self._log.clear()
