"""A hostile web site (www.napad.rs): servers that lie and attack a crawler.

Nothing in the generated web links here, so ordinary crawls never meet it; a test or the bench seeds
its home page, which links every case. Each case must end in a named error kind (or a clean refusal)
while the crawl goes on with its memory bounded:

  never_ending     a body that never ends (no Content-Length, bytes forever)
  slow_loris       one byte a second: every read is within the read timeout, the whole is not
  gzip_bomb        1 GiB of spaces gzip-compressed to about 1 MB
  deep_nesting     HTML nested 100,000 elements deep
  million_links    one page with 1,000,000 links
  long_urls        links whose URLs are 100 KB long
  other_schemes    javascript:, data:, mailto:, tel:, file: and ftp: links (never to be fetched)
  homographs       IDN host names that look like Latin ones (stored as punycode)
  session_paths    a new session id in every path, forever
  query_permutations  every page links to more orderings and values of its query, forever
  internal         /interno.html?port=N links to loopback and private addresses (port N on 127.0.0.1, its
                   other spellings, 10.0.0.1) and to /preusmeri?to=URL, an open redirect to them

robots.txt: www.napad.rs has none; ROBOTS_HUGE_HOST serves one of 50 MB, ROBOTS_BINARY_HOST a binary one.
"""

from __future__ import annotations

import html
import itertools
import time
import zlib
from functools import lru_cache
from typing import Iterator

from .responses import Response, error_page, html_response, redirect, text_response

HOSTILE_HOST = "www.napad.rs"
ROBOTS_HUGE_HOST = "veliki-robots.napad.rs"
ROBOTS_BINARY_HOST = "binarni-robots.napad.rs"
HOSTILE_HOSTS = frozenset({HOSTILE_HOST, ROBOTS_HUGE_HOST, ROBOTS_BINARY_HOST})

HOSTILE_PATHS = {
    "never_ending": "/beskrajno.html",
    "slow_loris": "/kap-po-kap.html",
    "gzip_bomb": "/bomba.html",
    "deep_nesting": "/duboko.html",
    "million_links": "/milion-linkova.html",
    "long_urls": "/dugacke-adrese.html",
    "other_schemes": "/druge-seme.html",
    "homographs": "/homografi.html",
    "session_paths": "/sesija/A0000/pocetak.html",
    "query_permutations": "/katalog?a=1&b=1",
}
SLOW_LORIS_INTERVAL_S = 1.0
SLOW_LORIS_BYTES = 4096         # an hour at one byte a second
GZIP_BOMB_BYTES = 1024 ** 3     # what the bomb expands to
ROBOTS_HUGE_BYTES = 50 * 1024 ** 2
NESTING_DEPTH = 100_000
LINK_COUNT = 1_000_000
LONG_URL_CHARS = 100_000
OTHER_SCHEME_LINKS = ("javascript:window.__fetched='js'", "data:text/html,<script>alert(1)</script>",
                      "mailto:urednik@napad.rs", "tel:+381111234567", "file:///etc/passwd",
                      "ftp://ftp.napad.rs/arhiva/")
# Cyrillic а (U+0430), е (U+0435), о (U+043E), р (U+0440) in names that read as Latin ones.
HOMOGRAPH_HOSTS = ("www.prim\u0435r.rs", "\u0440\u0430ypal.com", "g\u043e\u043egle.com")


def _page(title: str, body: str) -> bytes:
    return (f'<!DOCTYPE html>\n<html lang="sr-Latn"><head><meta charset="utf-8"><title>{html.escape(title)}'
            f"</title></head><body><h1>{html.escape(title)}</h1>{body}</body></html>\n").encode("utf-8")


def hostile_home() -> bytes:
    items = "".join(f'<li><a href="http://{HOSTILE_HOST}{path}">{name}</a></li>'
                    for name, path in HOSTILE_PATHS.items())
    return _page("Neprijateljski sajt", f"<ul>{items}</ul><p>Ovaj sajt napada pretraživače.</p>")


def _never_ending() -> Iterator[bytes]:
    yield b'<!DOCTYPE html><html lang="sr"><head><title>Beskrajno</title></head><body>'
    line = b"<p>Ova stranica nikada ne prestaje, ovaj red se ponavlja zauvek.</p>\n" * 1000
    while True:
        yield line


def _slow_loris(interval_s: float) -> Iterator[bytes]:
    body = _page("Kap po kap", "<p>" + "polako " * (SLOW_LORIS_BYTES // 7) + "</p>")[:SLOW_LORIS_BYTES]
    for i in range(len(body)):
        if i:
            time.sleep(interval_s)
        yield body[i:i + 1]


@lru_cache(maxsize=1)
def gzip_bomb() -> bytes:
    """GZIP_BOMB_BYTES of an HTML page of spaces, gzip-compressed (about 1 MB; built once)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    head = b'<!DOCTYPE html><html lang="sr"><head><title>Bomba</title></head><body><p>'
    parts = [packer.compress(head)]
    block = b" " * (1024 * 1024)
    for _ in range(GZIP_BOMB_BYTES // len(block)):
        parts.append(packer.compress(block))
    parts.append(packer.compress(b"</p></body></html>"))
    parts.append(packer.flush())
    return b"".join(parts)


def _deep_nesting() -> bytes:
    return (b'<!DOCTYPE html><html lang="sr"><head><title>Duboko</title></head><body>'
            + b"<div>" * NESTING_DEPTH + b"<p>Na dnu bunara.</p>" + b"</div>" * NESTING_DEPTH
            + b"</body></html>")


def _million_links() -> Iterator[bytes]:
    yield b'<!DOCTYPE html><html lang="sr"><head><title>Milion linkova</title></head><body>'
    for start in range(0, LINK_COUNT, 10_000):
        yield "".join(f'<a href="/l/{n}">{n}</a>\n' for n in range(start, start + 10_000)).encode()
    yield b"</body></html>"


def _long_urls() -> bytes:
    links = "".join(f'<a href="/dugo/{letter * LONG_URL_CHARS}">Dugačka adresa {letter}</a> '
                    for letter in "abc")
    return _page("Dugačke adrese", f"<p>{links}</p><p>Adrese od sto hiljada znakova.</p>")


def _other_schemes() -> bytes:
    links = "".join(f'<li><a href="{html.escape(url)}">veza {i}</a></li>' for i, url in enumerate(OTHER_SCHEME_LINKS))
    return _page("Druge šeme", f"<ul>{links}</ul><p><a href=\"/\">Početna</a></p>")


def _homographs() -> bytes:
    links = "".join(f'<li><a href="http://{host}/">{html.escape(host)}</a></li>' for host in HOMOGRAPH_HOSTS)
    return _page("Homografi", f"<ul>{links}</ul>")


def internal_targets(port: int) -> list[str]:
    """Addresses no public crawler may reach: loopback under five spellings, a private one, a link-local one."""
    return [f"http://127.0.0.1:{port}/tajna", f"http://localhost:{port}/tajna", f"http://[::1]:{port}/tajna",
            f"http://2130706433:{port}/tajna", f"http://0x7f.0.0.1:{port}/tajna", "http://10.0.0.1/tajna",
            "http://169.254.169.254/latest/meta-data/"]


def _internal(query: str) -> Response:
    port = dict(p.split("=", 1) for p in query.split("&") if "=" in p).get("port", "")
    if not port.isdigit() or not 0 < int(port) < 65536:
        return error_page(404, "interno.html needs ?port=N")
    targets = internal_targets(int(port))
    links = "".join(f'<li><a href="{html.escape(url)}">interno {i}</a></li>' for i, url in enumerate(targets))
    links += "".join(f'<li><a href="/preusmeri?to={html.escape(url)}">preusmerenje {i}</a></li>'
                     for i, url in enumerate(targets[:2]))
    return html_response(_page("Interne adrese", f"<ul>{links}</ul>"))


def _session_page(path: str) -> Response | None:
    # /sesija/<id>/<page>.html: every page links to three pages under ids never seen before.
    parts = path.strip("/").split("/")
    if len(parts) != 3 or not parts[1].isalnum() or len(parts[1]) > 40:
        return None
    number = int.from_bytes(parts[1].encode(), "big") % 1_000_003
    links = "".join(f'<a href="/sesija/S{number * 3 + k:X}/{name}.html">{name}</a> '
                    for k, name in enumerate(("vesti", "kontakt", "o-nama")))
    return html_response(_page(f"Sesija {parts[1]}", f"<p>{links}</p>"))


def _catalogue(query: str) -> Response:
    # Every ordering of the parameters, and each value one higher: new URLs without end.
    params = [p.split("=", 1) for p in query.split("&") if "=" in p][:6]
    links = []
    for order in itertools.islice(itertools.permutations(params), 6):
        links.append("&".join(f"{k}={v}" for k, v in order))
    for i, (key, value) in enumerate(params):
        bumped = [(k, str(int(v) + 1) if j == i and v.isdigit() else v) for j, (k, v) in enumerate(params)]
        links.append("&".join(f"{k}={v}" for k, v in bumped))
    links.append(query + f"&c{len(params)}=1")
    anchors = "".join(f'<a href="/katalog?{html.escape(q)}">Katalog</a> ' for q in links)
    return html_response(_page("Katalog", f"<p>{anchors}</p>"))


def hostile_response(host: str, path: str, query: str, *,
                     slow_loris_interval_s: float = SLOW_LORIS_INTERVAL_S) -> Response:
    """The hostile hosts' answer for one request."""
    if path == "/robots.txt":
        if host == ROBOTS_HUGE_HOST:
            return Response(200, {"Content-Type": "text/plain", "Content-Length": str(ROBOTS_HUGE_BYTES)},
                            _huge_robots())
        if host == ROBOTS_BINARY_HOST:
            return text_response(_binary_robots(), content_type="text/plain")
        return error_page(404, "no robots.txt")
    if host != HOSTILE_HOST:
        return html_response(_page("Robots", '<p><a href="/">Početna</a></p>')) if path == "/" else \
            error_page(404, f"no page {path} on {host}")
    if path in ("/", "/index.html"):
        return html_response(hostile_home())
    if path == HOSTILE_PATHS["never_ending"]:
        return Response(200, {"Content-Type": "text/html; charset=utf-8", "Connection": "close"}, _never_ending())
    if path == HOSTILE_PATHS["slow_loris"]:
        return Response(200, {"Content-Type": "text/html; charset=utf-8", "Content-Length": str(SLOW_LORIS_BYTES)},
                        _slow_loris(slow_loris_interval_s))
    if path == HOSTILE_PATHS["gzip_bomb"]:
        body = gzip_bomb()
        return html_response(body, extra={"Content-Encoding": "gzip"})
    if path == HOSTILE_PATHS["deep_nesting"]:
        return html_response(_deep_nesting())
    if path == HOSTILE_PATHS["million_links"]:
        return Response(200, {"Content-Type": "text/html; charset=utf-8", "Connection": "close"}, _million_links())
    if path == HOSTILE_PATHS["long_urls"]:
        return html_response(_long_urls())
    if path == HOSTILE_PATHS["other_schemes"]:
        return html_response(_other_schemes())
    if path == HOSTILE_PATHS["homographs"]:
        return html_response(_homographs())
    if path.startswith("/sesija/"):
        return _session_page(path) or error_page(404, f"no page {path} on {host}")
    if path == "/katalog":
        return _catalogue(query)
    if path == "/interno.html":
        return _internal(query)
    if path == "/preusmeri" and query.startswith("to="):
        return redirect(query[3:], status=302)
    return error_page(404, f"no page {path} on {host}")


def _huge_robots() -> Iterator[bytes]:
    # Valid lines, endlessly many Disallow rules: a parser that reads it whole holds 50 MB of rules.
    head = b"User-agent: *\nDisallow: /privatno/\n"
    yield head
    line = b"Disallow: /zabranjeno/" + b"x" * 40 + b"\n"
    block = line * (65536 // len(line))
    sent = len(head)
    while sent + len(block) <= ROBOTS_HUGE_BYTES:
        yield block
        sent += len(block)
    yield b"#" * (ROBOTS_HUGE_BYTES - sent)


def _binary_robots() -> bytes:
    return b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 64 + b"\nUser-agent: *\nDisallow: /\n"
