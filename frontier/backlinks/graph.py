"""Backlink provider (a): the crawl's own link graph, i.e. stored Links whose target is the URL.

Only pages on another site count: a site's own navigation is not a backlink in the sense of
Barbosa et al. (pages that point to the site from elsewhere).
"""
from __future__ import annotations

from crawlweb.crawler.urls import InvalidURL, normalize_url
from frontier.backlinks.base import BacklinkProvider, ProviderError


class CrawlGraphProvider(BacklinkProvider):
    name = "crawl-graph"

    def __init__(self, crawl_id: int, limit: int = 1000):
        self.crawl_id = crawl_id
        self.limit = limit

    def backlinks(self, url: str) -> list[str]:
        from crawlweb.models import Link

        try:
            key = normalize_url(url)
        except InvalidURL as error:
            raise ProviderError(f"not a crawlable URL: {url!r}: {error}", transient=False) from error
        sources = (Link.objects.filter(page__crawl_id=self.crawl_id, target_url=key, out_of_site=True)
                   .values_list("page__url", flat=True).distinct()[: self.limit])
        return list(dict.fromkeys(sources))
