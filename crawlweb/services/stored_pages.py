"""The page a crawl stored for a URL, found among its site's pages.

Page has no index on its URLs (two more indexes of ~80 bytes a page would be a tenth of what a page
costs, for look-ups only the detector and the labeling cards make), so a look-up by URL over a whole
crawl reads every page: 50 ms at 100,000 pages, and each detector read and card grew slower with the
crawl. A URL's site is known from its host, and a site's pages are read through the site index.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from django.db.models import Q, Subquery

from crawlweb.models import Host, Page


def page_at(crawl_id: int, url: str, *, site_id: int | None = None, pages=None) -> Page | None:
    """The page stored for ``url``: requested as it, else redirected to it (the oldest of each), or None.

    ``site_id``: the URL's site when the caller has it (else read from its host; a host the crawl never
    met has no page); ``pages``: the Page queryset to read (its deferred fields). A page another site
    redirected to is its requesting site's, so it is not found here."""
    site = site_id if site_id is not None else Subquery(  # one statement: the host's site read inside it
        Host.objects.filter(name=(urlsplit(url).hostname or "")).values("site_id")[:1])
    found = {page.url == url: page for page in (pages if pages is not None else Page.objects)
             .filter(crawl_id=crawl_id, site_id=site).filter(Q(url=url) | Q(final_url=url)).order_by("-id")}
    return found.get(True) or found.get(False)  # listed newest first: the oldest of each is kept


def pages_at(crawl_id: int, wanted: list[tuple[str, int | None]]) -> dict[str, Page]:
    """page_at of many (url, site id) in one statement: {url: page} for the URLs the crawl stored."""
    wanted = [(url, site_id) for url, site_id in wanted if site_id is not None]  # a host the crawl never met
    if not wanted:
        return {}
    site_of = dict(wanted)
    urls = list(site_of)
    requested, redirected = {}, {}
    for page in (Page.objects.filter(crawl_id=crawl_id, site_id__in=set(site_of.values()))
                 .filter(Q(url__in=urls) | Q(final_url__in=urls)).order_by("-id")):
        if site_of.get(page.url) == page.site_id:
            requested[page.url] = page  # listed newest first: the oldest of each is kept
        if page.final_url and site_of.get(page.final_url) == page.site_id:
            redirected[page.final_url] = page
    return {url: requested.get(url) or redirected[url] for url in urls if url in requested or url in redirected}
