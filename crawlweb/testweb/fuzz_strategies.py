"""Hypothesis strategies for fuzz webs (fuzz.py): small webs of pages linking each other and hostile answers.

    from crawlweb.testweb.fuzz_strategies import fuzz_webs
    @given(fuzz_webs())
    def test_…(web): …

Most answers are ordinary pages (so the crawl goes somewhere), with one or more hostile traits each:
odd status codes, Content-Type and charset garbage, Content-Length lies, Location values (relative,
to other fuzz hosts, invalid ports, IPv6 literals, other schemes, very long), wrong or undeclared
encodings, BOMs, invalid bytes, empty and oversized bodies, delays of at most MAX_DELAY_S, and robots.txt
files with odd directives and values. Needs the `hypothesis` package (the test extras).
"""
from __future__ import annotations

from dataclasses import replace

from hypothesis import strategies as st

from .fuzz import ENCODINGS, MANY_HEADERS, FuzzAnswer, FuzzHost, FuzzWeb

MAX_DELAY_S = 1.5  # a case may be slow, never long: the crawl's read timeout is longer
ODD_STATUSES = (100, 101, 102, 103, 201, 202, 203, 204, 206, 226, 299, 300, 301, 302, 303, 304, 305, 307, 308,
                399, 400, 401, 403, 404, 410, 418, 429, 451, 499, 500, 502, 503, 504, 599, 600, 799, 999)
REDIRECTS = (301, 302, 303, 307, 308)
CONTENT_TYPES = ("text/html", "TEXT/HTML", "application/xhtml+xml", "text/plain", "application/octet-stream",
                 "image/png", "text/html, text/plain", "html", "", ";", "text/html; charset", "*/*",
                 "application/pdf", "text/html\x00", "multipart/x-mixed-replace; boundary=x")
CHARSETS = ("utf-8", "UTF8", "windows-1250", "cp1251", "iso-8859-2", "koi8-r", "utf-16", "utf-32", "latin1",
            "x-unknown", "", '"utf-8"', "utf-8; utf-16", "\u017eu\u017eu", "a" * 300, "bogus-1e300", "ascii")
# Hrefs and Location values ({hN}: the web's host N).
SANE_LINKS = ("/p1.html", "/p2.html", "/p3.html", "p1.html", "./p2.html", "../p3.html", "/", "http://{h1}/",
              "http://{h1}/p1.html", "http://{h2}/p2.html", "//{h1}/p3.html", "/p1.html?a=1&b=2#frag",
              "/p2.html?b=2&a=1", "HTTP://{h0}/p1.html", "http://{h0}:80/p2.html", "/p9.html", "/robots.txt")
HOSTILE_LINKS = (
    "http://{h0}:99999/", "http://{h1}:abc/", "http://{h0}:0/", "http://{h1}:-1/p1.html", "http://{h0}:65536/",
    "http://{h2}:8080/p1.html", "http://[::1]:99999/", "http://[::1]:abc/", "http://[::1]/", "http://[zzzz]/",
    "http://[fe80::1%25eth0]/", "http://[::ffff:127.0.0.1]/", "http://[2001:db8::1]:80/", "http://[::1",
    "javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "data:text/html,<script>alert(1)</script>",
    "ftp://{h0}/file", "mailto:a@{h0}", "file:///etc/passwd", "tel:+381", "https://{h1}/p1.html",
    "http://" + "a" * 300 + ".rs/", "http://{h0}/" + "x" * 5000, "http:///p1.html", "http://", "://", "",
    " ", "http://{h0}/%zz%", "http://user:pass@{h1}/p1.html", "http://{h0}./p1.html", "http://127.0.0.1:1/",
    "http://10.0.0.1/", "http://169.254.169.254/latest/", "http://xn--zz.rs/", "http://ex ample.rs/",
    "http://{h0}/\x00", "http://\u0161uma.rs/", "http://{h0}/\u010da\u010dak.html", "\\\\{h1}\\p1.html",
    "http:{h1}/p1.html", "http://{h0}:80:80/", "http://2130706433/", "http://0x7f.1/")
CRAWL_DELAYS = ("1e300", "-5", "nan", "NaN", "inf", "-inf", "abc", "0.5", "1", "", "1e-300", "99999999999",
                "0x10", "1_000", "\u0663", "3600", "86400", "-0", "1e308", "2.6e11", "  7  ")
ROBOTS_PATTERNS = ("", "/", "*", "/$", "/p1*", "/*.html$", "/%", "/%zz", "/[", "(", ".*", "/p" + "*" * 200,
                   "/\u010d", "$$$", "/p1.html$", "**/", "/?", "/p2.html", "p1", "/" + "a" * 2000)
EXTRA_HEADERS = (("Content-Encoding", "gzip"), ("Content-Encoding", "br"), ("Content-Encoding", "x-unknown"),
                 ("Transfer-Encoding", "chunked"), ("Retry-After", "1e300"), ("Retry-After", "-5"),
                 ("Retry-After", "Wed, 99 Foo 9999"), ("Refresh", "0; url=javascript:alert(1)"),
                 ("Refresh", "0; url=http://{h1}/p1.html"), ("Link", "<http://{h1}/p2.html>; rel=canonical"),
                 ("X-Robots-Tag", "noindex, nofollow"), ("Set-Cookie", "s=" + "a" * 4000),
                 ("Last-Modified", "yesterday"), ("Last-Modified", "Mon, 01 Jan 99999999999 00:00:00 GMT"),
                 ("Last-Modified", "Fri, 31 Dec 9999 23:59:59 -0100"),  # beyond what a date holds, in UTC
                 ("ETag", "W/\"" + "e" * 3000 + "\""), ("X-Long", "a" * 70_000),
                 ("Content-Language", "sr, \u017eu"), ("Content-Location", "http://[::1]:99999/"),
                 (MANY_HEADERS, "150"), ("Content-Length", "-1"), ("Content-Length", "1e300"))

garbage = st.text(max_size=12)
links = st.one_of(st.sampled_from(SANE_LINKS), st.sampled_from(HOSTILE_LINKS),
                  st.builds(lambda base, tail: base + tail, st.sampled_from(SANE_LINKS), garbage))


@st.composite
def answers(draw, *, robots: bool = False) -> FuzzAnswer:
    """One answer: an ordinary page (or robots.txt) with a few hostile traits drawn on top."""
    hostile = draw(st.integers(0, 3))  # how many traits depart from an ordinary answer
    kinds = ("robots", "empty", "binary", "oversized", "html", "text") if robots else \
        ("empty", "text", "binary", "oversized", "nested", "robots")
    status = draw(st.sampled_from(ODD_STATUSES)) if hostile and draw(st.booleans()) else 200
    location = None
    if status in REDIRECTS or (hostile and draw(st.integers(0, 4)) == 0):
        location = draw(links)
    return FuzzAnswer(
        status=status,
        content_type=draw(st.none() | st.sampled_from(CONTENT_TYPES)) if hostile > 1 else
        ("text/plain" if robots else "text/html"),
        charset=draw(st.none() | st.sampled_from(CHARSETS) | garbage) if hostile else "utf-8",
        meta_charset=draw(st.none() | st.sampled_from(CHARSETS)),
        encoding=draw(st.sampled_from(ENCODINGS)) if hostile else "utf-8",
        bom=draw(st.booleans()) if hostile else False,
        body=draw(st.sampled_from(kinds)) if hostile > 1 else ("robots" if robots else "html"),
        length=draw(st.sampled_from(("true", "none", "more", "less"))) if hostile > 2 else "true",
        location=location,
        links=tuple(draw(st.lists(links, max_size=6))),
        robots_lines=tuple(draw(st.lists(robots_lines(), max_size=8))) if robots else (),
        delay_s=draw(st.sampled_from((0.0, 0.0, 0.0, 0.2, MAX_DELAY_S))) if hostile else 0.0,
        headers=tuple(draw(st.lists(st.sampled_from(EXTRA_HEADERS), max_size=2))) if hostile else (),
    )


def robots_lines():
    value = st.one_of(st.sampled_from(ROBOTS_PATTERNS), garbage)
    # Crawl-delay is drawn twice as often as the others: its values are the ones that stopped crawls.
    crawl_delay = st.builds("Crawl-delay: {}".format, st.one_of(st.sampled_from(CRAWL_DELAYS), garbage,
                                                                st.floats(allow_nan=True).map(repr)))
    return st.one_of(
        st.sampled_from(("User-agent: *", "User-agent: BilingualCrawler", "User-agent: *\x00", "User-agent:",
                         "Disallow:", "Host: {h1}", "Request-rate: 1/0", "Visit-time: 9999-0000", "#")),
        st.builds("Disallow: {}".format, value),
        st.builds("Allow: {}".format, value),
        crawl_delay, crawl_delay,
        st.builds("Sitemap: {}".format, links),
        garbage,
    )


@st.composite
def fuzz_hosts(draw, min_pages: int = 1, max_pages: int = 4) -> FuzzHost:
    pages = draw(st.lists(answers(), min_size=min_pages, max_size=max_pages))
    # Page i also links page i+1, so every page is reachable when the answers before it are pages.
    chained = tuple(p if i + 1 == len(pages) else
                    replace(p, links=p.links + (f"/p{i + 1}.html",))
                    for i, p in enumerate(pages))
    robots = draw(st.one_of(st.none(), answers(robots=True), answers(robots=True)))
    return FuzzHost(robots=robots, pages=chained)


def fuzz_webs(max_hosts: int = 3, max_pages: int = 4, *, min_hosts: int = 1, min_pages: int = 1):
    """Webs of ``min_hosts`` to ``max_hosts`` fuzz hosts of ``min_pages`` to ``max_pages`` answers each."""
    return st.builds(FuzzWeb, st.lists(fuzz_hosts(min_pages, max_pages), min_size=min_hosts,
                                       max_size=max_hosts).map(tuple))
