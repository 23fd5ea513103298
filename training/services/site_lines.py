"""Each pair's site line counts (evaluation.bodies.page_body.SiteLines) from the crawl's stored pages.

A pair's site is read as scoring reads it: the successful pages of the pair's site and of the sites
its two pages are stored under (a site group such as www.x and x), so training and scoring see the
same template lines."""
from __future__ import annotations

from collections import defaultdict

from crawlweb.models import Page
from evaluation.bodies.page_body import SiteLines


def site_lines_of(pairs) -> dict[int, SiteLines]:
    """{pair id: its site's SiteLines} for stored CandidatePairs (pages selected with them)."""
    sites_of: dict[tuple[int, int], set[int]] = defaultdict(set)
    for p in pairs:
        sites_of[(p.crawl_id, p.site_id)] |= {s for s in (p.site_id, getattr(p.source_page, "site_id", None),
                                                          getattr(p.target_page, "site_id", None)) if s}
    lines = {}
    for (crawl_id, site_id), sites in sites_of.items():
        pages = Page.objects.filter(crawl_id=crawl_id, site_id__in=sites, status_code__gte=200,
                                    status_code__lt=300).values_list("url", "text").iterator()
        lines[(crawl_id, site_id)] = SiteLines.from_pages((url, text or "") for url, text in pages)
    return {p.pk: lines[(p.crawl_id, p.site_id)] for p in pairs}
