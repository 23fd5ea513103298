"""The hard cases a crawler must survive: broken pages, robots.txt variants and a trap.

They live on the special site (www.problemi.rs), whose home page links to all of them,
except robots.txt variants, which belong to ordinary sites (see sites._assign_robots).
"""

from __future__ import annotations

import hashlib
import html
import io
import random
import struct
import zipfile
import zlib
from email.utils import formatdate, parsedate_to_datetime
from typing import Iterator

from .responses import Response, error_page, html_response, redirect, text_response
from .text_source import entries_for

DEFAULT_SLOW_DELAY_S = 3.0
DEFAULT_OVERSIZED_BYTES = 11 * 1024 * 1024

# path → key in truth()["special_urls"]; the anchor text is Serbian, as on the site's home page.
SPECIAL_PATHS = {
    "charset_wrong_header": ("/kodiranje/pogresno-zaglavlje.html", "Pogrešno zaglavlje"),
    "charset_windows_1250_meta": ("/kodiranje/windows-1250.html", "Stara kodna strana"),
    "charset_missing": ("/kodiranje/bez-oznake.html", "Bez oznake kodiranja"),
    "truncated": ("/prekinuto.html", "Prekinuta stranica"),
    "not_found": ("/nema-stranice.html", "Nepostojeća stranica"),
    "server_error": ("/greska.html", "Greška servera"),
    "redirect_chain": ("/preusmerenje/pocetak.html", "Lanac preusmerenja"),
    "redirect_loop": ("/petlja/a.html", "Petlja"),
    "redirect_to_loopback": ("/preusmerenje/lokalno.html", "Lokalna adresa"),
    "redirect_to_private": ("/preusmerenje/privatno.html", "Privatna adresa"),
    "slow": ("/sporo.html", "Spora stranica"),
    "oversized": ("/ogromno.html", "Ogromna stranica"),
    "binary_png": ("/dokumenti/izvestaj.html", "Izveštaj"),
    "binary_zip": ("/dokumenti/arhiva.html", "Arhiva"),
    "conditional": ("/kesirano.html", "Keširana stranica"),
    "trap": ("/calendar/2026/11", "Kalendar događaja"),
    "plain_text": ("/dokumenti/adrese.txt", "Spisak adresa"),
}
REDIRECT_CHAIN = ("/preusmerenje/pocetak.html", "/preusmerenje/korak-2.html", "/preusmerenje/kraj.html")
REDIRECT_LOOP = ("/petlja/a.html", "/petlja/b.html")
LOOPBACK_TARGET = "http://127.0.0.1:9/"
PRIVATE_TARGET = "http://10.0.0.1/"
CONDITIONAL_LAST_MODIFIED = formatdate(1793527200, usegmt=True)  # Sun, 01 Nov 2026 10:00 GMT

_LATIN_SAMPLE = "Šetnja kroz Čačak, Niš i Đerdap: žuto lišće, ćilim i džem."


def _serbian_text(seed: int, key: str, count: int = 4, script: str = "sr-latn") -> str:
    entries = entries_for(("en",))
    rng = random.Random(f"testweb-special-{seed}-{key}")
    return " ".join(e.text(script) for e in rng.sample(entries, count))


def _page(title: str, body_html: str, lang: str = "sr-Latn", meta: str = '<meta charset="utf-8">') -> str:
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n{meta}\n<title>{html.escape(title)}</title>\n'
            f"</head>\n<body>\n<h1>{html.escape(title)}</h1>\n{body_html}\n</body>\n</html>\n")


def special_home(host: str) -> bytes:
    items = "".join(f'<li><a href="http://{host}{path}">{html.escape(label)}</a></li>'
                    for path, label in SPECIAL_PATHS.values())
    return _page("Problematične stranice", f"<ul>{items}</ul>").encode("utf-8")


def _png(seed: int) -> bytes:
    """A real, valid 64x64 PNG with seeded noise (so it is 'binary' through and through)."""
    rng = random.Random(f"testweb-png-{seed}")
    raw = b"".join(b"\x00" + rng.randbytes(64 * 3) for _ in range(64))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", 64, 64, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


def tiny_png() -> bytes:
    return _png(0)


def _zip(seed: int) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        info = zipfile.ZipInfo("izvestaj.txt", date_time=(2026, 11, 1, 8, 0, 0))
        archive.writestr(info, _serbian_text(seed, "zip", 6).encode("utf-8"))
    return buffer.getvalue()


def _oversized(seed: int, size: int) -> Iterator[bytes]:
    # Exactly `size` bytes, streamed in 64 KiB chunks, never held in memory whole.
    head = _page("Ogromna stranica", "").split("</body>")[0].encode("utf-8")
    tail = b"</body>\n</html>\n"
    unit = ("<p>" + html.escape(_serbian_text(seed, "oversized", 6)) + "</p>\n").encode("utf-8")
    middle = max(0, size - len(head) - len(tail))
    yield head
    block = unit * max(1, 65536 // len(unit))
    sent = 0
    while sent + len(block) <= middle:
        yield block
        sent += len(block)
    remaining = middle - sent
    whole_units = remaining // len(unit)
    yield unit * whole_units + b" " * (remaining - whole_units * len(unit))
    yield tail


def _conditional(seed: int, host: str, headers: dict[str, str]) -> Response:
    body = _page("Keširana stranica", f"<p>{html.escape(_serbian_text(seed, 'cached'))}</p>").encode("utf-8")
    etag = '"' + hashlib.md5(body).hexdigest()[:16] + '"'
    validators = {"ETag": etag, "Last-Modified": CONDITIONAL_LAST_MODIFIED,
                  "Cache-Control": "max-age=0"}
    if_none_match = headers.get("if-none-match")
    if if_none_match is not None:
        fresh = if_none_match.strip() == "*" or etag in [t.strip() for t in if_none_match.split(",")]
    else:
        fresh = False
        since = headers.get("if-modified-since")
        if since:
            try:
                fresh = parsedate_to_datetime(since) >= parsedate_to_datetime(CONDITIONAL_LAST_MODIFIED)
            except (TypeError, ValueError):
                fresh = False   # an unparsable date is ignored (RFC 9110 §13.1.3)
    if fresh:
        return Response(304, validators, b"")
    return html_response(body, extra=validators)


def calendar_page(host: str, year: int, month: int) -> Response:
    """The crawler trap: every month links to the next and the previous one, forever."""
    prev_y, prev_m = (year, month - 1) if month > 1 else (year - 1, 12)
    next_y, next_m = (year, month + 1) if month < 12 else (year + 1, 1)
    links = (f'<p><a href="http://{host}/calendar/{prev_y}/{prev_m}">« Prethodni mesec</a> | '
             f'<a href="http://{host}/calendar/{next_y}/{next_m}">Sledeći mesec »</a></p>'
             "<p>Nema događaja u ovom mesecu.</p>")
    return html_response(_page(f"Kalendar {month}/{year}", links).encode("utf-8"))


def special_response(seed: int, host: str, path: str, headers: dict[str, str], *,
                     slow_delay_s: float, oversized_bytes: int) -> Response | None:
    """The special site's answer for `path`, or None when the path is not one of its pages."""
    url = f"http://{host}"
    if path in ("/", "/index.html"):
        return html_response(special_home(host))
    if path == SPECIAL_PATHS["charset_wrong_header"][0]:
        text = _serbian_text(seed, "wrong-header", 3, "sr-cyrl") + " " + _LATIN_SAMPLE
        body = _page("Кодирање", f"<p>{html.escape(text)}</p>", meta="").encode("utf-8")
        return html_response(body, charset="iso-8859-1")
    if path == SPECIAL_PATHS["charset_windows_1250_meta"][0]:
        text = _serbian_text(seed, "cp1250") + " " + _LATIN_SAMPLE
        meta = '<meta http-equiv="Content-Type" content="text/html; charset=windows-1250">'
        return html_response(_page("Kodna strana", f"<p>{html.escape(text)}</p>", meta=meta)
                             .encode("cp1250"), charset=None)
    if path == SPECIAL_PATHS["charset_missing"][0]:
        text = _serbian_text(seed, "missing") + " " + _LATIN_SAMPLE
        return html_response(_page("Bez oznake", f"<p>{html.escape(text)}</p>", meta="")
                             .encode("utf-8"), charset=None)
    if path == SPECIAL_PATHS["truncated"][0]:
        full = _page("Prekinuto", f"<p>{html.escape(_serbian_text(seed, 'truncated', 6))}</p>"
                     f'<p><a href="{url}/">Početna</a></p>').encode("utf-8")
        cut = full[: full.index(b'<p><a href=') + 14]   # ends inside an attribute value
        return html_response(cut)
    if path == SPECIAL_PATHS["server_error"][0]:
        return error_page(500, "Interna greška servera.")
    if path in REDIRECT_CHAIN[:2]:
        step = REDIRECT_CHAIN.index(path)
        return redirect(url + REDIRECT_CHAIN[step + 1], status=301 if step == 0 else 302)
    if path == REDIRECT_CHAIN[2]:
        return html_response(_page("Kraj preusmerenja", f"<p>{html.escape(_serbian_text(seed, 'final'))}</p>")
                             .encode("utf-8"))
    if path in REDIRECT_LOOP:
        other = REDIRECT_LOOP[1 - REDIRECT_LOOP.index(path)]
        return redirect(url + other, status=301 if path == REDIRECT_LOOP[0] else 302)
    if path == SPECIAL_PATHS["redirect_to_loopback"][0]:
        return redirect(LOOPBACK_TARGET, status=302)
    if path == SPECIAL_PATHS["redirect_to_private"][0]:
        return redirect(PRIVATE_TARGET, status=302)
    if path == SPECIAL_PATHS["slow"][0]:
        response = html_response(_page("Sporo", f"<p>{html.escape(_serbian_text(seed, 'slow'))}</p>")
                                 .encode("utf-8"))
        response.delay_s = slow_delay_s
        return response
    if path == SPECIAL_PATHS["oversized"][0]:
        return Response(200, {"Content-Type": "text/html; charset=utf-8",
                              "Content-Length": str(oversized_bytes)},
                        _oversized(seed, oversized_bytes))
    if path == SPECIAL_PATHS["plain_text"][0]:
        # A plain-text document with addresses written out, as in a README or a mailing-list archive.
        body = (f"{_serbian_text(seed, 'plain')}\n\nKorisne adrese: http://www.primer.rs/ i "
                f"www.problemi.rs/kesirano.html (pogledajte i {url}/prekinuto.html).\n")
        return text_response(body.encode("utf-8"))
    if path == SPECIAL_PATHS["binary_png"][0]:
        return html_response(_png(seed))
    if path == SPECIAL_PATHS["binary_zip"][0]:
        return html_response(_zip(seed))
    if path == SPECIAL_PATHS["conditional"][0]:
        return _conditional(seed, host, headers)
    parts = path.strip("/").split("/")
    if len(parts) == 3 and parts[0] == "calendar" and parts[1].isdigit() and parts[2].isdigit():
        year, month = int(parts[1]), int(parts[2])
        if 1 <= year <= 99999 and 1 <= month <= 12:
            return calendar_page(host, year, month)
    return None


def robots_response(seed: int, kind: str) -> Response:
    """robots.txt of a site: most have none (404); see sites._assign_robots for the others."""
    if kind == "disallow":
        body = ("# Internal pages are not for crawlers.\nUser-agent: *\nDisallow: /private/\n\n"
                "User-agent: BadBot\nDisallow: /\n")
        return text_response(body.encode())
    if kind == "crawl-delay":
        return text_response(b"User-agent: *\nCrawl-delay: 1\nAllow: /\n")
    if kind == "error-500":
        return error_page(500, "robots.txt is temporarily unavailable")
    if kind == "garbage":
        # About 600 KB of noise: binary bytes, an endless line and stray directives.
        rng = random.Random(f"testweb-robots-{seed}")
        noise = rng.randbytes(200_000)
        body = (b"<html><body>Not a robots file\x00\xff\xfe" + noise + b"\nUser-agent *\nDisalow /\n"
                + b"Disallow: " + b"/x" * 200_000 + b"\n")
        return text_response(body)
    return error_page(404, "no robots.txt on this site")
