"""Sitemaps of the generated web (sitemaps.org 0.9, with Google's xhtml:link hreflang alternates).

Two bilingual sites without hreflang in their pages declare their translations in a sitemap,
so a crawl finds those pairs only by reading it:
  robots-index  robots.txt names /sitemap-index.xml, an index naming /sitemaps/pages.xml.gz (gzip)
  root          no robots.txt, a plain /sitemap.xml (the place a crawler tries by convention)
Every page of the site is listed; a translated page declares both language versions (itself
included, as the protocol asks); half-translated and one-language pages declare nothing.
"""
from __future__ import annotations

import gzip
from xml.sax.saxutils import escape, quoteattr

from .responses import Response, text_response
from .sites import ISO_OF, TRANSLATED, SiteSpec

ROBOTS_INDEX = "robots-index"
ROOT = "root"
INDEX_PATH = "/sitemap-index.xml"
PAGES_PATH = "/sitemaps/pages.xml.gz"
ROOT_PATH = "/sitemap.xml"
_URLSET = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
           'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n{}</urlset>\n')


def sitemap_urls(site: SiteSpec) -> list[str]:
    """The site's sitemap files, the one a crawler meets first first."""
    if site.sitemap == ROBOTS_INDEX:
        return [f"http://{site.host}{INDEX_PATH}", f"http://{site.host}{PAGES_PATH}"]
    if site.sitemap == ROOT:
        return [f"http://{site.host}{ROOT_PATH}"]
    return []


def declared_pairs(site: SiteSpec) -> list[list[str]]:
    """[first-language URL, second-language URL] of every pair the sitemap declares."""
    first, second = site.languages
    return [[site.url(first, slug), site.url(second, slug)] for slug in site.slugs
            if site.status.get(slug, TRANSLATED) == TRANSLATED]


def robots_response(site: SiteSpec) -> Response:
    return text_response(f"User-agent: *\nAllow: /\n\nSitemap: http://{site.host}{INDEX_PATH}\n".encode())


def sitemap_response(site: SiteSpec, path: str) -> Response | None:
    """The sitemap file at ``path`` of the site, or None when it has none there."""
    if site.sitemap == ROBOTS_INDEX and path == INDEX_PATH:
        body = ('<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/'
                f'sitemap/0.9">\n  <sitemap><loc>http://{site.host}{PAGES_PATH}</loc></sitemap>\n</sitemapindex>\n')
        return text_response(body.encode(), "application/xml")
    if site.sitemap == ROBOTS_INDEX and path == PAGES_PATH:
        return text_response(gzip.compress(_urlset(site).encode(), mtime=0), "application/x-gzip")
    if site.sitemap == ROOT and path == ROOT_PATH:
        return text_response(_urlset(site).encode(), "application/xml")
    return None


def _urlset(site: SiteSpec) -> str:
    entries = []
    for slug in site.slugs:
        translated = site.status.get(slug, TRANSLATED) == TRANSLATED
        for lang in site.languages:
            if not site.has_page(lang, slug):
                continue
            links = "".join(f'    <xhtml:link rel="alternate" hreflang="{ISO_OF[other]}" href={quoteattr(site.url(other, slug))}/>\n'
                            for other in site.languages) if translated else ""
            entries.append(f"  <url>\n    <loc>{escape(site.url(lang, slug))}</loc>\n{links}  </url>\n")
    return _URLSET.format("".join(entries))

