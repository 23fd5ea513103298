"""Fuzz hosts: hostile answers as data, served by the test web (fuzz_strategies.py generates them).

A FuzzWeb is a few hosts; each has a robots.txt answer (or none: 404) and pages at /, /p1.html, /p2.html …
Every answer is a FuzzAnswer: its status, headers (Content-Type and charset, Content-Length true or a
lie, Location, extra ones), body (kind, real encoding, BOM, size), links and a delay. Link, Location and
header values are templates: "{h1}" is the name the web's host 1 was installed under (modulo the number of
hosts), so pages link each other while the hostile values (ports, schemes, IPv6 literals) stay readable.

TestWeb.fuzz, a FuzzHosts registry, serves installed webs, each under host names of its own
(fz<serial>h<i>.rs): a crawl's Hosts (robots cache, politeness clock) never carry over to the next web.
"""
from __future__ import annotations

import codecs
import hashlib
import html
import re
import threading
from dataclasses import dataclass
from typing import Iterator

from .responses import Response

BODY_KINDS = ("html", "empty", "text", "binary", "oversized", "nested", "robots")
LENGTHS = ("true", "none", "more", "less")  # Content-Length: right, absent, larger or smaller than the body
# How the text is really encoded: codecs, and "invalid" (UTF-8 with bytes no decoder accepts).
ENCODINGS = ("utf-8", "cp1250", "iso-8859-2", "koi8-r", "utf-16", "latin-1", "invalid")
TEXT = "Fuzz stranica {where}: Čačak, šuma, đak, ćevap, žir; Београд, Ниш. Parallel page text."
NESTING = 20_000
ROBOTS_OVERSIZE_BYTES = 700 * 1024  # beyond the 500 KiB a robots.txt parser must read (RFC 9309)
MANY_HEADERS = "X-Fuzz-Many"  # an extra header of this name stands for that many headers
_TEMPLATE = re.compile(r"\{h(\d+)\}")


@dataclass(frozen=True)
class FuzzAnswer:
    """One generated answer of a fuzz host (a page or its robots.txt)."""

    status: int = 200
    content_type: str | None = "text/html"   # None: no Content-Type header
    charset: str | None = "utf-8"            # the header's charset parameter, garbage allowed
    meta_charset: str | None = None          # a <meta charset> in an HTML body
    encoding: str = "utf-8"                  # ENCODINGS: how the text is really encoded
    bom: bool = False                        # a UTF-8 byte-order mark first, whatever the encoding
    body: str = "html"                       # BODY_KINDS
    length: str = "true"                     # LENGTHS
    location: str | None = None              # a Location header (template)
    links: tuple[str, ...] = ()              # hrefs in the body (templates)
    robots_lines: tuple[str, ...] = ()       # the lines of a "robots" body (templates)
    delay_s: float = 0.0                     # the server waits this long before answering
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class FuzzHost:
    robots: FuzzAnswer | None  # None: robots.txt answers 404
    pages: tuple[FuzzAnswer, ...]  # pages[0] at /, pages[i] at /p<i>.html


@dataclass(frozen=True)
class FuzzWeb:
    hosts: tuple[FuzzHost, ...]

    @property
    def case_count(self) -> int:
        """Answers in this web: each page and each robots.txt is a case."""
        return sum(len(host.pages) + (host.robots is not None) for host in self.hosts)


def page_path(index: int) -> str:
    return "/" if index == 0 else f"/p{index}.html"


def fill(template: str, names: tuple[str, ...]) -> str:
    """A template with every {hN} replaced by host N's name (N modulo the number of hosts)."""
    return _TEMPLATE.sub(lambda m: names[int(m.group(1)) % len(names)], template)


def _encode(text: str, encoding: str) -> bytes:
    if encoding == "invalid":
        return text.encode("utf-8").replace(b" ", b" \xff\xc3\x28\x80 ", 3)
    return text.encode(encoding, errors="replace")


def _header_value(value: str) -> str:
    # The server writes headers as latin-1 and a CR or LF would end them: hostile, but not framing.
    return re.sub(r"[\r\n]", " ", value).encode("latin-1", errors="replace").decode("latin-1")


def _body(answer: FuzzAnswer, where: str, names: tuple[str, ...], oversized_bytes: int, robots: bool) -> bytes:
    kind = answer.body
    if kind == "empty":
        return b""
    if kind == "binary":
        return hashlib.sha512(where.encode()).digest() * 64
    if kind == "robots" or (robots and kind == "oversized"):
        text = "".join(fill(line, names) + "\n" for line in answer.robots_lines)
        data = _encode(text, answer.encoding)
        if kind == "oversized":
            data = (data or b"Disallow: /nigde/\n") * (ROBOTS_OVERSIZE_BYTES // max(1, len(data)) + 1)
        return data
    text = TEXT.format(where=where)
    if kind == "text":
        return _encode(text, answer.encoding)
    links = "".join(f'<a href="{html.escape(fill(link, names))}">veza {i}</a>\n' for i, link in enumerate(answer.links))
    meta = f'<meta charset="{html.escape(answer.meta_charset)}">' if answer.meta_charset is not None else ""
    inner = f"<p>{html.escape(text)}</p>\n{links}"
    if kind == "nested":
        inner = "<div>" * NESTING + inner + "</div>" * NESTING
    page = (f"<!DOCTYPE html>\n<html lang=\"sr\"><head>{meta}<title>{html.escape(where)}</title></head>"
            f"<body>{inner}</body></html>\n")
    data = _encode(page, answer.encoding)
    if kind == "oversized":
        data += b"<!-- " + b"x" * oversized_bytes + b" -->"
    return data


def render(answer: FuzzAnswer, where: str, names: tuple[str, ...], *, oversized_bytes: int,
           robots: bool = False) -> Response:
    """The HTTP answer ``answer`` stands for, at ``where`` (host and path) of a web installed as ``names``."""
    body = _body(answer, where, names, oversized_bytes, robots)
    if answer.bom:
        body = codecs.BOM_UTF8 + body
    headers: dict[str, str] = {}
    if answer.content_type is not None:
        charset = f"; charset={answer.charset}" if answer.charset is not None else ""
        headers["Content-Type"] = _header_value(answer.content_type + charset)
    if answer.location is not None:
        headers["Location"] = _header_value(fill(answer.location, names))
    for name, value in answer.headers:
        if name == MANY_HEADERS:
            headers.update({f"X-Fuzz-{i}": "x" for i in range(int(value))})
        else:
            headers[_header_value(name).replace(":", "") or "X-Empty"] = _header_value(fill(value, names))
    odd_framing = answer.length != "true" or answer.status < 200 or answer.status in (204, 304)
    lengths = {"true": len(body), "more": len(body) + 100, "less": max(0, len(body) - 10)}
    if answer.length in lengths:
        headers["Content-Length"] = str(lengths[answer.length])
    if odd_framing:
        # The client cannot tell where this answer ends: closing the connection bounds its wait.
        headers["Connection"] = "close"
    # A streamed body keeps the server from adding a Content-Length of its own.
    return Response(answer.status, headers, _chunks(body), delay_s=answer.delay_s)


def _chunks(body: bytes) -> Iterator[bytes]:
    step = 64 * 1024
    return iter([body[i:i + step] for i in range(0, len(body), step)])


class FuzzHosts:
    """The fuzz webs a test web serves now, by host name. Thread-safe: the server answers from many threads."""

    def __init__(self, oversized_bytes: int = 256 * 1024):
        self.oversized_bytes = oversized_bytes
        self._hosts: dict[str, tuple[FuzzHost, tuple[str, ...]]] = {}
        self._serial = 0
        self._lock = threading.Lock()

    def install(self, web: FuzzWeb) -> tuple[str, ...]:
        """Serve ``web`` under new host names; returns them (host i of the web is names[i])."""
        with self._lock:
            self._serial += 1
            names = tuple(f"fz{self._serial}h{i}.rs" for i in range(len(web.hosts)))
            self._hosts.update({name: (host, names) for name, host in zip(names, web.hosts)})
        return names

    def uninstall(self, names: tuple[str, ...]) -> None:
        with self._lock:
            for name in names:
                self._hosts.pop(name, None)

    def __contains__(self, host: str) -> bool:
        return host in self._hosts

    def case_of(self, host: str, path: str) -> FuzzAnswer | None:
        """The answer serving ``path`` of ``host`` (None: a 404 of the test web, not a case)."""
        found = self._hosts.get(host)
        if found is None:
            return None
        fuzz_host = found[0]
        if path == "/robots.txt":
            return fuzz_host.robots
        index = 0 if path in ("/", "/index.html") else _page_index(path)
        return fuzz_host.pages[index] if index is not None and index < len(fuzz_host.pages) else None

    def respond(self, host: str, path: str) -> Response:
        found = self._hosts.get(host)
        answer = self.case_of(host, path)
        if found is None or answer is None:
            body = f"no fuzz case at {host}{path}".encode()
            return Response(404, {"Content-Type": "text/plain", "Content-Length": str(len(body))}, body)
        return render(answer, f"{host}{path}", found[1], oversized_bytes=self.oversized_bytes,
                      robots=path == "/robots.txt")


def _page_index(path: str) -> int | None:
    match = re.fullmatch(r"/p(\d{1,3})\.html", path)
    return int(match.group(1)) if match else None
