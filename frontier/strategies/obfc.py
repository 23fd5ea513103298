"""OBFC, the back/forward crawl without prioritization (Barbosa et al. 2011, Sec. 2.2).

The crawl looks for sites, not pages: only out-of-site links count, and a site already in the
forward queue is not queued again. Outlinks of forward pages are not followed (the crawl walks
the bipartite graph of backlink pages and the pages they point to); outlinks of backlink pages
(and of the seeds) go to the forward queue. Backlinks come from the BS Detector job.
When both queues run dry, frontier.strategies.refill adds more (its last stage expands the seeds'
own sites one level); the in-site links of a site judged bilingual wait for it as held Targets.
"""
from __future__ import annotations

from frontier.models import Target
from frontier.strategies.base import Planned, Strategy
from frontier.strategies.refill import held_links, judged_bilingual

# Pages whose outlinks are followed: the seeds and the backlink pages.
EXPANDED_ORIGINS = (Target.Origin.SEED, Target.Origin.BACKLINK)


class BackForwardCrawl(Strategy):
    name = "obfc"
    back_and_forth = True

    def __init__(self, crawl, settings):
        super().__init__(crawl, settings)
        self._bilingual_sites: dict[int, bool] = {}

    def targets_for_page(self, target, page, parsed, links):
        # Any page of a site judged bilingual: its in-site links are held for the refill (refill.held_links).
        held = held_links(page, target.depth + 1, links, self._judged_bilingual)
        return (self._forward_links(links) if target.origin in EXPANDED_ORIGINS else []) + held

    def expect_pages(self, pages) -> None:
        """The pages of the batch about to be asked about: their sites' verdicts are read in one query.
        A crawl step builds one strategy for the batch it stores (under the crawl's store lock); on a web
        of many small sites a query per site was a tenth of a back/forward crawl's step time, which the
        BS Detector's stores waited out behind that lock."""
        self._read_verdicts({page.site_id for page in pages})

    def _judged_bilingual(self, site_id: int) -> bool:
        self._read_verdicts({site_id})  # a page its batch did not announce
        return self._bilingual_sites[site_id]

    def _read_verdicts(self, site_ids: set[int]) -> None:
        unknown = site_ids - self._bilingual_sites.keys()
        if unknown:
            bilingual = judged_bilingual(self.crawl, unknown)
            self._bilingual_sites.update({site_id: site_id in bilingual for site_id in unknown})

    def _forward_links(self, links) -> list[Planned]:
        out = [link for link in links if link.out_of_site]
        queued = set(Target.objects.filter(crawl=self.crawl, site__name__in={link.site for link in out})
                     .exclude(origin=Target.Origin.BACKLINK).values_list("site__name", flat=True))
        planned, sites = [], set()
        for link in out:
            if link.site in queued or link.site in sites:
                continue
            sites.add(link.site)
            planned.append(Planned(link.candidate, Target.Origin.FORWARD, self.forward_priority(link)))
        return planned

    def opens_sitemaps(self, target, page, parsed) -> bool:
        # In-site links are not followed: only the sites judged bilingual get their sitemaps, when the
        # queues run dry (refill.bilingual_sitemaps).
        return False

    def forward_priority(self, link) -> float | None:
        return 0.0
