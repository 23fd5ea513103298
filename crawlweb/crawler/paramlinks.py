"""Speculative links carried in a link's query string: ``login.html?redirect=sfured.html``.

Sites behind a (client-side) login or a tracking hop link their pages only as a parameter of
another URL: ``login_en.html?redirect=sfalgoritam_en.html``, ``/go?url=/en/about/``,
``?next=/sr/kontakt/``. The page named in the parameter is where the user ends up, yet no
``<a href>`` names it. Like the path literals of scripts (crawler.scriptlinks), a parameter value
that looks like a page path of the same site is taken as a guess: callers mark it (link kind
``param``), never follow it to another site, and get at most ``MAX_PARAM_LINKS`` per link.

A value is read whatever the parameter's name (redirect, next, url, return, from, goto …): the
name lists differ from site to site, the shape of a page path does not. A value is resolved
against the carrying link's own URL, as the page that reads it would (the login page redirects
relative to itself); a value that itself carries a page in its query (``video_player.html?from=
index.html``, percent-encoded or not) gives that page too.

A static page (``.html``/``.htm``) linked only with a query that names no page
(``prikaz_opcije_sr.html?iznos=30&valuta=usd``) is the same document whatever its query: its own
scripts read the values. ``static_page_itself`` gives its URL without the query, the address the
page is known by (a crawl that stores only the eight query forms of one page pairs none of them
with the other language's page as the site lists it).
"""
from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

from .scriptlinks import looks_like_page_path, same_site
from .urls import resolve_link

MAX_PARAM_LINKS = 4  # pages named by one link's query: a real redirect names one, a nested one two
MAX_DEPTH = 2  # a redirect's target may carry its own ``from=`` page; deeper nesting is noise


def _names_a_page(value: str) -> bool:
    if value.lower().startswith(("http://", "https://")):
        path = urlsplit(value).path
        return path in ("", "/") or looks_like_page_path(path)
    return looks_like_page_path(value)


def param_links(url: str, *, depth: int = MAX_DEPTH) -> list[str]:
    """Same-site pages named in the query of ``url`` (absolute), in order, without repeats."""
    found: list[str] = []
    if "=" not in url or depth <= 0:  # most links: no query at all, no cost
        return found
    parts = urlsplit(url)
    query, itself = parts.query, parts._replace(query="", fragment="").geturl()
    if not query:
        return found
    for _name, value in parse_qsl(query, keep_blank_values=False):
        value = value.strip()
        if not _names_a_page(value):
            continue
        target = resolve_link(url, value)
        if not target or not same_site(target, url) or target in (url, itself):
            continue
        for page in [target] + param_links(target, depth=depth - 1):
            if page not in found:
                found.append(page)
    return found[:MAX_PARAM_LINKS]


def static_page_itself(url: str) -> str | None:
    """``url`` without its query when it names a static page (``.html``/``.htm``) and has a query; else None."""
    parts = urlsplit(url)
    if not parts.query or not parts.path.lower().endswith((".html", ".htm")):
        return None
    return parts._replace(query="", fragment="").geturl()
