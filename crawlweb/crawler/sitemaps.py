"""Sitemaps (sitemaps.org protocol 0.9): page URLs, nested sitemaps and hreflang alternates.

Pure module. A sitemap is an XML ``<urlset>`` of ``<url><loc>`` entries, or a ``<sitemapindex>`` of
``<sitemap><loc>`` entries naming more sitemaps; either may be gzip-compressed. Google's
extension puts a page's language versions in the entry: ``<xhtml:link rel="alternate"
hreflang="sr" href="…"/>``, the same declaration as ``<link rel=alternate hreflang>`` in a page's
head. Bounded: at most MAX_SITEMAP_BYTES of (decompressed) XML and MAX_SITEMAP_URLS entries are
read (the protocol's own limits are 50 MB and 50,000 URLs; a crawl wants far fewer); entities are
never resolved and no network access happens while parsing.
"""
from __future__ import annotations

import zlib
from urllib.parse import urlsplit, urlunsplit
from dataclasses import dataclass, field

import lxml.etree

from .urls import resolve_link, site_name

MAX_SITEMAP_BYTES = 5_000_000
MAX_SITEMAP_URLS = 2_000
_GZIP_MAGIC = b"\x1f\x8b"
# Where a site's sitemap is looked for when its robots.txt names none (sitemaps.org, "Sitemap location").
DEFAULT_SITEMAP_PATH = "/sitemap.xml"


class NotASitemap(ValueError):
    """The document is not a sitemap (its root is neither urlset nor sitemapindex), or is broken."""


@dataclass
class SitemapEntry:
    url: str
    alternates: dict[str, str] = field(default_factory=dict)  # hreflang -> URL, as declared


@dataclass
class Sitemap:
    pages: list[SitemapEntry] = field(default_factory=list)
    sitemaps: list[str] = field(default_factory=list)  # nested sitemaps of an index
    truncated: bool = False  # the caps cut it


def decompress(body: bytes, limit: int = MAX_SITEMAP_BYTES) -> tuple[bytes, bool]:
    """(XML bytes, cut at the limit?) of a plain or gzip-compressed body."""
    if not body.startswith(_GZIP_MAGIC):
        return body[:limit], len(body) > limit
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        data = inflater.decompress(body, limit)
    except zlib.error as error:
        raise NotASitemap(f"broken gzip: {error}") from error
    return data, bool(inflater.unconsumed_tail)


def looks_like_sitemap(body: bytes) -> bool:
    """A cheap test on the first bytes: gzip, or XML whose root is urlset or sitemapindex."""
    if body.startswith(_GZIP_MAGIC):
        try:
            body = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(body, 2048)
        except zlib.error:
            return False
    head = body[:2048].lower()
    return b"<urlset" in head or b"<sitemapindex" in head


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1].lower() if isinstance(tag, str) else ""


def parse_sitemap(body: bytes, base_url: str, *, max_urls: int = MAX_SITEMAP_URLS) -> Sitemap:
    """The entries of a sitemap or sitemap index; raises NotASitemap for anything else."""
    data, truncated = decompress(body)
    parser = lxml.etree.XMLParser(resolve_entities=False, no_network=True, recover=True, huge_tree=False)
    try:
        root = lxml.etree.fromstring(data, parser=parser)
    except lxml.etree.XMLSyntaxError as error:
        raise NotASitemap(f"not XML: {error}") from error
    if root is None or _local(root.tag) not in ("urlset", "sitemapindex"):
        raise NotASitemap(f"root element is {_local(getattr(root, 'tag', '')) or 'missing'}, not urlset or sitemapindex")
    out = Sitemap(truncated=truncated)
    for entry in root:
        if len(out.pages) + len(out.sitemaps) >= max_urls:
            out.truncated = True
            break
        kind = _local(entry.tag)
        loc = next((child.text for child in entry if _local(child.tag) == "loc" and child.text), None)
        url = resolve_link(base_url, loc.strip()) if loc else None
        if not url:
            continue
        if kind == "sitemap":
            out.sitemaps.append(url)
        elif kind == "url":
            alternates = {}
            for child in entry:
                if _local(child.tag) == "link" and (child.get("rel") or "").lower() == "alternate":
                    href = resolve_link(base_url, (child.get("href") or "").strip())
                    hreflang = (child.get("hreflang") or "").strip().lower()
                    if href and hreflang:
                        alternates[hreflang] = href
            out.pages.append(SitemapEntry(url, alternates))
    return out


def root_sitemaps(page_url: str, robots_sitemaps: list[str]) -> list[tuple[str, str]]:
    """(sitemap URL, why) to fetch for the host of ``page_url``: every ``Sitemap:`` line of its
    robots.txt that names the same site, else ``/sitemap.xml`` of the host.

    A line naming another site is left out: sitemaps.org allows such cross-submits, but fetching it
    would be a request to a host the crawl did not choose, for URLs it would have to check against
    the robots.txt of yet another host; a site's own sitemap is where its pages are listed."""
    parts = urlsplit(page_url)
    if not parts.scheme or not parts.hostname:
        raise ValueError(f"cannot locate the sitemaps of {page_url!r}: not an absolute URL")
    own_site = site_name(parts.hostname)
    found = []
    for line in robots_sitemaps:
        url = resolve_link(page_url, line.strip())
        if url and site_name(urlsplit(url).hostname or "") == own_site and url not in (u for u, _ in found):
            found.append((url, "Sitemap: line of robots.txt"))
    if found:
        return found
    return [(urlunsplit((parts.scheme, parts.netloc, DEFAULT_SITEMAP_PATH, "", "")),
             f"{DEFAULT_SITEMAP_PATH}, tried once per host (robots.txt names no sitemap)")]
