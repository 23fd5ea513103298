"""HTTP fetching: one pooled requests.Session, redirects followed hop by hop, a size cap, error kinds.

Redirects are followed here (not by requests) so that every hop is checked against the address policy
and recorded; the body is read as it arrives on the wire, capped at max_bytes, and decoded (gzip/deflate)
by us, so both the wire bytes (for WARC) and the decoded bytes (for parsing) are kept.
Proxies come from the environment (HTTP_PROXY, HTTPS_PROXY, NO_PROXY) through requests' trust_env.
"""
from __future__ import annotations

import email.utils
import http.cookiejar
import os
import socket
import time
import zlib
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

import requests
import urllib3
from requests.cookies import RequestsCookieJar, extract_cookies_to_jar
from requests.utils import get_environ_proxies, select_proxy

from .addresses import KIND_DNS_TEMPORARY, POLICIES, AddressRefused, Resolver, check_address_allowed
from .charset_codecs import utf16_byte_order
from .pinned import PinnedAdapter

# Error kinds (FetchResult.error_kind); ROBOTS and EXCLUDED are set by the caller, not by the Fetcher.
TIMEOUT = "timeout"
DNS = "dns"
DNS_TEMPORARY = KIND_DNS_TEMPORARY
REFUSED = "refused"
CONNECTION = "connection"
TOO_LARGE = "too_large"
REDIRECT_LOOP = "redirect_loop"
TOO_MANY_REDIRECTS = "too_many_redirects"
PRIVATE_ADDRESS = "private_address"
NOT_HTML = "not_html"
HTTP_ERROR = "http_error"
ROBOTS = "robots"
EXCLUDED = "excluded"
INVALID_URL = "invalid_url"
# An error of the crawler's own while fetching one URL (a bug to report, its traceback in the log): it is
# recorded against that Target (set by the crawl step), and the crawl goes on with the others.
UNEXPECTED = "unexpected"
ERROR_KINDS = (TIMEOUT, DNS, DNS_TEMPORARY, REFUSED, CONNECTION, TOO_LARGE, REDIRECT_LOOP, TOO_MANY_REDIRECTS,
               PRIVATE_ADDRESS, NOT_HTML, HTTP_ERROR, ROBOTS, EXCLUDED, INVALID_URL, UNEXPECTED)

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
PROBE_BYTES = 16 * 1024  # what head() reads when it has to fall back to GET
_CHUNK = 64 * 1024
# The environment variables requests reads proxies from (lower case wins, as in urllib).
PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy",
                   "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")


@dataclass
class HttpExchange:
    """One request/response hop as it went over the wire (what the WARC writer stores)."""
    method: str
    url: str
    request_headers: list[tuple[str, str]]
    status: int
    reason: str
    http_version: str  # "HTTP/1.1"
    raw_headers: list[tuple[str, str]]  # as received, original case and order
    raw_body: bytes  # as received (still content-encoded), de-chunked
    truncated: bool = False
    fetched_at: float = 0.0


@dataclass
class FetchResult:
    requested_url: str
    final_url: str
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)  # final hop, lower-case keys
    body: bytes = b""  # decoded (no gzip), at most max_bytes
    truncated: bool = False
    redirects: list[tuple[str, str, int]] = field(default_factory=list)  # (from_url, to_url, status)
    error_kind: str | None = None
    error: str = ""
    elapsed_s: float = 0.0
    fetched_at: float = 0.0
    exchanges: list[HttpExchange] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error_kind is None and self.status is not None and 200 <= self.status < 300

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";", 1)[0].strip().lower()


class _BodyDecoder:
    """Incremental gzip/deflate decoding with an output cap (a small gzip must not expand without bound)."""

    def __init__(self, content_encoding: str):
        enc = content_encoding.strip().lower()
        self.kind = enc if enc in ("gzip", "x-gzip", "deflate") else "identity"
        self._d = None
        if self.kind in ("gzip", "x-gzip"):
            self._d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self._first = True

    def feed(self, chunk: bytes, limit: int) -> bytes:
        if self.kind == "identity":
            return chunk[:limit]
        if self.kind == "deflate" and self._d is None:
            # "deflate" is meant to be zlib-wrapped, but many servers send raw deflate: look at the header.
            zlib_header = len(chunk) >= 2 and (chunk[0] & 0x0F) == 8 and ((chunk[0] << 8) | chunk[1]) % 31 == 0
            self._d = zlib.decompressobj(zlib.MAX_WBITS if zlib_header else -zlib.MAX_WBITS)
        out = self._d.decompress(chunk, limit)
        while self._d.unconsumed_tail and len(out) < limit:
            out += self._d.decompress(self._d.unconsumed_tail, limit - len(out))
        return out


def _walk_causes(exc: BaseException):
    seen, stack = set(), [exc]
    while stack:
        e = stack.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        yield e
        stack.extend([e.__cause__, e.__context__, getattr(e, "reason", None)])
        stack.extend(a for a in getattr(e, "args", ()) if isinstance(a, BaseException))


def _classify_exception(exc: BaseException) -> str:
    causes = list(_walk_causes(exc))
    # Order matters: urllib3's NewConnectionError subclasses its timeout error for old callers.
    if any(isinstance(c, ConnectionRefusedError) for c in causes):
        return REFUSED
    if any(isinstance(c, urllib3.exceptions.NameResolutionError) for c in causes):
        return DNS
    if any(isinstance(c, (requests.exceptions.InvalidURL, requests.exceptions.MissingSchema,
                          requests.exceptions.InvalidSchema, urllib3.exceptions.LocationParseError))
           for c in causes):
        return INVALID_URL
    if any(isinstance(c, (requests.exceptions.Timeout, urllib3.exceptions.ReadTimeoutError, TimeoutError,
                          socket.timeout)) or type(c) is urllib3.exceptions.ConnectTimeoutError
           for c in causes):
        return TIMEOUT
    return CONNECTION


def _http_version(raw) -> str:
    return {9: "HTTP/0.9", 10: "HTTP/1.0", 11: "HTTP/1.1", 20: "HTTP/2"}.get(getattr(raw, "version", 11), "HTTP/1.1")


class Fetcher:
    """Fetches URLs politely and safely; one instance is shared by the threads of a crawl step."""

    def __init__(
        self,
        user_agent: str,
        *,
        connect_timeout: float = 5.0,
        read_timeout: float = 15.0,
        max_bytes: int = 10 * 1024 * 1024,
        max_redirects: int = 5,
        address_policy: str = "public",
        pool_size: int = 32,
        total_timeout: float = 60.0,
        resolver: Resolver | None = None,
    ):
        if not user_agent or not user_agent.strip():
            raise ValueError("a crawler must identify itself: user_agent is empty")
        if address_policy not in POLICIES:
            raise ValueError(f"unknown address policy {address_policy!r}; expected one of {', '.join(POLICIES)}")
        self.user_agent = user_agent
        self.timeout = (connect_timeout, read_timeout)
        self.total_timeout = total_timeout
        self.max_bytes = max_bytes
        self.max_redirects = max_redirects
        self.address_policy = address_policy
        self.resolver = resolver  # None: the system's, cached (addresses._resolve)
        self.session = requests.Session()
        # HTTP_PROXY / HTTPS_PROXY / NO_PROXY are honoured by proxies_for(), which reads them once
        # per host: requests' own reading (trust_env) scans the whole environment on every request.
        self.session.trust_env = False
        # Never ~/.netrc either: a crawler must not send its operator's credentials to the sites
        # it visits (requests looks netrc up for every request when no auth is set).
        self.session.auth = _no_credentials
        self._proxies: dict[tuple, dict[str, str]] = {}
        # What trust_env would also have read: a CA bundle named in the environment.
        self.session.verify = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE") or True
        # Direct connections go to the addresses the policy checked, resolved once (crawler/pinned.py).
        adapter = PinnedAdapter(address_policy, resolver, pool_connections=pool_size, pool_maxsize=pool_size,
                                max_retries=0)
        self.session.mount("http://", adapter)
        self.session.mount("https://", adapter)
        # Cookies are kept per fetch (across its redirect hops) but never shared between fetches or threads:
        # a cookie-driven language switch must not make one URL answer differently depending on history.
        self.session.cookies.set_policy(http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
        self.session.headers.clear()
        self.session.headers.update({
            "User-Agent": user_agent,
            "Accept": "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.8",
            "Accept-Encoding": "gzip, deflate",  # only what _BodyDecoder can undo
            "Connection": "keep-alive",
        })

    def close(self) -> None:
        self.session.close()

    def __enter__(self) -> "Fetcher":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def proxies_for(self, url: str) -> dict[str, str]:
        """The proxies of the environment for url (NO_PROXY applied), with requests' own helpers,
        remembered per host and proxy variables' values."""
        parts = urlsplit(url)
        key = (parts.scheme, parts.netloc, tuple(os.environ.get(name) for name in PROXY_VARIABLES))
        proxies = self._proxies.get(key)
        if proxies is None:
            if len(self._proxies) > 10_000:
                self._proxies.clear()
            proxies = self._proxies[key] = {**get_environ_proxies(url, no_proxy=None), **self.session.proxies}
        return proxies

    def is_proxied(self, url: str) -> bool:
        """Whether a request for url goes through a proxy."""
        return bool(select_proxy(url, self.proxies_for(url)))

    def fetch(self, url: str, *, method: str = "GET", etag: str | None = None,
              last_modified: str | None = None, hop_interval: float = 0.0) -> FetchResult:
        """GET (or ``method``) a URL, following redirects; each hop is a request of its own, so it
        waits ``hop_interval`` seconds (the host's politeness interval) after the previous one."""
        conditional = {}
        if etag:
            conditional["If-None-Match"] = etag
        if last_modified:
            conditional["If-Modified-Since"] = last_modified
        return self._fetch(url, method.upper(), conditional, self.max_bytes, probe=False, hop_interval=hop_interval)

    def head(self, url: str) -> FetchResult:
        """Existence check: HEAD, or a short GET when the server does not implement HEAD (405/501)."""
        result = self._fetch(url, "HEAD", {}, 0, probe=True)
        if result.status in (405, 501):
            result = self._fetch(url, "GET", {}, PROBE_BYTES, probe=True)
        return result

    # --- internals -------------------------------------------------------------------------------------

    def _fetch(self, url: str, method: str, conditional: dict, max_bytes: int, probe: bool,
               hop_interval: float = 0.0) -> FetchResult:
        started, fetched_at = time.monotonic(), time.time()
        deadline = started + self.total_timeout
        result = FetchResult(requested_url=url, final_url=url, fetched_at=fetched_at)
        jar = RequestsCookieJar()
        visited: set[tuple[str, tuple]] = set()
        current = url
        try:
            while True:
                key = (current.split("#", 1)[0], tuple(sorted((c.name, c.value) for c in jar)))
                if key in visited:
                    result.error_kind, result.error = REDIRECT_LOOP, f"redirect loop back to {current}"
                    break
                visited.add(key)
                result.final_url = current
                if not self._admit(current, result):
                    break
                if result.redirects and hop_interval > 0:
                    time.sleep(max(0.0, min(hop_interval, deadline - time.monotonic())))
                extra = conditional if not result.redirects else {}
                exchange, location = self._one_hop(current, method, extra, jar, max_bytes, deadline, result)
                if exchange is None:
                    break
                if location is None:
                    break
                if len(result.redirects) >= self.max_redirects:
                    result.error_kind = TOO_MANY_REDIRECTS
                    result.error = f"more than {self.max_redirects} redirects (next: {location})"
                    break
                result.redirects.append((current, location, exchange.status))
                if exchange.status == 303 and method not in ("GET", "HEAD"):
                    method = "GET"  # RFC 9110 15.4.4
                current = location
        finally:
            result.elapsed_s = time.monotonic() - started
        if result.error_kind is None and result.status is not None:
            if result.status >= 400:
                result.error_kind, result.error = HTTP_ERROR, f"HTTP {result.status}"
            elif result.truncated and not probe:
                result.error_kind = TOO_LARGE
                result.error = f"body larger than {max_bytes} bytes: truncated"
        return result

    def _admit(self, url: str, result: FetchResult) -> bool:
        try:
            parts = urlsplit(url)
            host = parts.hostname
            parts.port  # noqa: B018 -- raises ValueError for a port out of range or not a number
        except ValueError as exc:
            result.error_kind, result.error = INVALID_URL, f"malformed URL {url!r}: {exc}"
            return False
        if parts.scheme not in ("http", "https") or not host:
            result.error_kind, result.error = INVALID_URL, f"cannot fetch {url!r}: not an http(s) URL with a host"
            return False
        try:
            proxied = self.is_proxied(url)
        except ValueError as exc:  # requests' NO_PROXY matching reads the URL again: never let it raise
            result.error_kind, result.error = INVALID_URL, f"malformed URL {url!r}: {exc}"
            return False
        try:
            check_address_allowed(host, self.address_policy, proxied=proxied, resolver=self.resolver)
        except AddressRefused as exc:
            result.error_kind, result.error = exc.kind, exc.reason
            return False
        return True

    def _one_hop(self, url, method, extra_headers, jar, max_bytes, deadline, result):
        """Do one request; fill result from it. Returns (exchange or None on error, absolute redirect target)."""
        try:
            resp = self.session.request(method, url, headers=extra_headers, cookies=jar, timeout=self.timeout,
                                        allow_redirects=False, stream=True, proxies=self.proxies_for(url))
        except AddressRefused as exc:  # raised by the pinned connection: its own resolution was refused
            result.error_kind, result.error = exc.kind, exc.reason
            return None, None
        except Exception as exc:  # requests wraps everything transport-level; map it to an error kind
            result.error_kind, result.error = _classify_exception(exc), f"{type(exc).__name__}: {exc}"
            return None, None
        try:
            extract_cookies_to_jar(jar, resp.request, resp.raw)
            raw_headers = [(k, v) for k, v in resp.raw.headers.items()]
            exchange = HttpExchange(
                method=method, url=url, request_headers=list(resp.request.headers.items()),
                status=resp.status_code, reason=resp.reason or "", http_version=_http_version(resp.raw),
                raw_headers=raw_headers, raw_body=b"", fetched_at=time.time())
            result.exchanges.append(exchange)
            result.status = resp.status_code
            result.headers = {k.lower(): v for k, v in resp.headers.items()}
            result.body, result.truncated = b"", False
            location = resp.headers.get("location")
            if resp.status_code in REDIRECT_STATUSES and location:
                try:
                    target = urljoin(url, location.strip())
                except ValueError:
                    result.error_kind, result.error = INVALID_URL, f"bad redirect Location {location!r}"
                    return None, None
                return exchange, target.split("#", 1)[0]
            if method != "HEAD" and resp.status_code not in (204, 304):
                self._read_body(resp, exchange, max_bytes, deadline, result)
            return exchange, None
        finally:
            resp.close()

    def _read_body(self, resp, exchange, max_bytes, deadline, result) -> None:
        encoding = resp.headers.get("content-encoding", "").strip().lower()
        decoder = _BodyDecoder(encoding)
        if decoder.kind == "identity" and encoding not in ("", "identity"):
            result.error = f"unsupported Content-Encoding {encoding!r}: body kept as received"
        raw, body = bytearray(), bytearray()
        truncated = False
        try:
            # read1: what has arrived, not a full chunk, so that a server trickling one byte a second
            # (each read within the read timeout) still meets the whole-response deadline below.
            while chunk := resp.raw.read1(_CHUNK, decode_content=False):
                raw += chunk
                try:
                    body += decoder.feed(chunk, max_bytes - len(body) + 1)
                except zlib.error as exc:
                    result.error = f"cannot decode {decoder.kind} body ({exc}); kept the bytes as received"
                    decoder = _BodyDecoder("identity")
                    body = bytearray(raw[:max_bytes + 1])
                if len(body) > max_bytes or len(raw) > max_bytes:
                    truncated = True
                    break
                if time.monotonic() > deadline:
                    result.error_kind = TIMEOUT
                    result.error = f"body not received within {self.total_timeout:.0f} s"
                    truncated = True
                    break
        except Exception as exc:
            result.error_kind, result.error = _classify_exception(exc), f"while reading body: {exc}"
            truncated = True
        result.body, result.truncated = bytes(body[:max_bytes]), truncated
        exchange.raw_body, exchange.truncated = bytes(raw[:max_bytes]), truncated


# --- what to do with a result ---------------------------------------------------------------------------


# Signatures of binary formats that servers mislabel as text/html (a download script, a bad config).
BINARY_MAGIC = (b"\x89PNG", b"GIF8", b"\xff\xd8\xff", b"PK\x03\x04", b"\x1f\x8b", b"%PDF-", b"Rar!",
                b"7z\xbc\xaf", b"\x00\x00\x01\x00", b"MZ", b"\x7fELF", b"OggS", b"ID3", b"RIFF")


def looks_binary(body: bytes) -> bool:
    """True for a known binary signature, or NUL bytes early on (no HTML or text has them, but UTF-16)."""
    head = body[:1024]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or utf16_byte_order(head):
        return False  # UTF-16 text, with its byte-order mark or its zeros every other byte
    return head.startswith(BINARY_MAGIC) or b"\x00" in head


SCRIPT_TYPES = ("application/javascript", "text/javascript", "application/x-javascript", "application/ecmascript",
                "text/ecmascript")


def content_kind(result: FetchResult) -> str:
    """'html', 'text', 'script', 'pdf' or 'other', from Content-Type, sniffing the body when the type is missing or generic,
    and refusing a declared text type whose body is binary."""
    ctype = result.content_type
    if ctype.startswith("text/") and looks_binary(result.body):
        return "pdf" if result.body.startswith(b"%PDF-") else "other"
    if ctype in ("text/html", "application/xhtml+xml"):
        return "html"
    if ctype == "text/plain":
        return "text"
    if ctype in SCRIPT_TYPES:
        return "script"
    if ctype == "application/pdf":
        return "pdf"
    if ctype in ("", "application/octet-stream", "binary/octet-stream"):
        head = result.body[:1024].lstrip().lower()
        if head.startswith(b"%pdf-"):
            return "pdf"
        if head.startswith((b"<!doctype html", b"<html")) or b"<head" in head or b"<body" in head:
            return "html"
    return "other"


def _no_credentials(request):
    return request


def classify_content(result: FetchResult, *, accept_text: bool = True) -> str | None:
    """NOT_HTML when the body is not something we parse (HTML, and plain text unless accept_text=False)."""
    if result.status is None or result.status in (204, 304) or result.error_kind is not None:
        return None
    kind = content_kind(result)
    if kind == "html" or (accept_text and kind == "text"):
        return None
    return NOT_HTML


def is_transient(error_kind: str | None, status: int | None = None) -> bool:
    """Whether trying again later may succeed."""
    if error_kind in (TIMEOUT, CONNECTION, REFUSED, DNS_TEMPORARY):
        return True
    if error_kind in (None, HTTP_ERROR) and status is not None:
        return status >= 500 or status in (408, 429)
    return False


def backoff_seconds(attempt: int, *, base: float = 60.0, cap: float = 6 * 3600.0) -> float:
    """Delay before retry number attempt (1, 2, ...): base * 2**(attempt-1), capped."""
    if attempt < 1:
        raise ValueError(f"attempt counts from 1, got {attempt}")
    return min(cap, base * (2.0 ** min(attempt - 1, 60)))


def retry_after_seconds(headers: dict[str, str], now: float | None = None) -> float | None:
    """Seconds asked for by a Retry-After header (delta-seconds or HTTP-date), or None."""
    value = (headers.get("retry-after") or "").strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when - (time.time() if now is None else now))
