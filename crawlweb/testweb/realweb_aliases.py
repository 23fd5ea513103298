"""A real site's own origins, mapped to the host it is served under in the real development web.

Real robots.txt files, sitemaps and hreflang/canonical links name absolute URLs of the site's
real domain (`https://www.example.rs/en/`) or of its GitHub Pages address
(`https://user.github.io/repo/en/`), while the development web serves the site over plain http
under its own host (`http://<host>/en/`). A manifest lists those origins as `aliases`; the builder
rewrites them, and only them, in three places, keeping every other byte of the file:

* robots.txt: `Sitemap:` lines;
* sitemaps (`.xml` files): the whole file (its URLs are `<loc>` and `xhtml:link href` values);
* html pages: `<link>` tags whose rel is canonical or alternate, and any tag with `hreflang`.

Matching ignores the scheme (sites mix http and https for their own domain) and letter case, and
an alias ends at a URL boundary, so `https://u.github.io/repo` does not match `…/repository`.
Pure: bytes in, bytes out; no Django.
"""
from __future__ import annotations

import re

_ALIAS = re.compile(r"^https?://[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(:\d+)?(/[^\s?#/]+)*$",
                    re.IGNORECASE)
_ROBOTS_SITEMAP_LINE = re.compile(rb"(?im)^[ \t]*sitemap[ \t]*:.*$")
_TAG = re.compile(rb"<[a-zA-Z][^<>]*>")
_LINK_REL = re.compile(rb"""^<link\b[^>]*\brel\s*=\s*["']?[^"'>]*\b(canonical|alternate)\b""", re.IGNORECASE)
_HREFLANG = re.compile(rb"\shreflang\s*=", re.IGNORECASE)


def alias_problems(aliases: list) -> list[str]:
    """What is wrong with a manifest's `aliases`: each is an http(s) origin, optionally with a
    path prefix, without a trailing slash, query or fragment."""
    return [f"alias {alias!r} is not an origin like https://www.example.rs or https://user.github.io/repo"
            for alias in aliases if not isinstance(alias, str) or not _ALIAS.match(alias)]


def _pattern(aliases: list[str]) -> re.Pattern[bytes]:
    # Longest first, so https://u.github.io/repo wins over https://u.github.io.
    bodies = sorted((alias.split("://", 1)[1].encode("ascii") for alias in aliases), key=len, reverse=True)
    return re.compile(rb"https?://(?:" + b"|".join(re.escape(body) for body in bodies) + rb")(?=[/?#\"'<>\s)]|$)",
                      re.IGNORECASE)


def map_aliases(path: str, data: bytes, aliases: list[str], host: str) -> bytes:
    """The file's bytes with the site's own origins replaced by http://<host> where a crawler
    reads them (see the module's docstring); other files and other bytes are left as they are."""
    if not aliases:
        return data
    pattern = _pattern(aliases)
    served = f"http://{host}".encode("ascii")

    def mapped(text: bytes) -> bytes:
        return pattern.sub(served, text)

    name = path.rsplit("/", 1)[-1].lower()
    if name == "robots.txt":
        return _ROBOTS_SITEMAP_LINE.sub(lambda line: mapped(line[0]), data)
    if name.endswith(".xml"):
        return mapped(data)
    if name.endswith((".html", ".htm")):
        return _TAG.sub(lambda tag: mapped(tag[0]) if _LINK_REL.match(tag[0]) or _HREFLANG.search(tag[0])
                        else tag[0], data)
    return data
