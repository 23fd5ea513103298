"""The small interface every crawl strategy implements.

A strategy sees a fetched page's followable links and says which become Targets: each planned
link has an origin (the queue: "backlink" or anything else = forward) and a priority (higher is
leased earlier; None keeps the breadth-first default, minus the depth).
"""
from __future__ import annotations

from dataclasses import dataclass

from crawlweb.services.crawl_policy import LinkOut
from crawlweb.services.targets import Candidate
from frontier.discovery_settings import DiscoverySettings


@dataclass
class Planned:
    candidate: Candidate
    origin: str
    priority: float | None = None
    held: bool = False  # a Target.State.HELD row: leased once the refill releases it (strategies.refill)


class Strategy:
    """Base class: follow every link as a forward link, breadth-first (the BFS strategy)."""

    name = "bfs"
    #: True when the back/forward queues and the BS Detector's backlinks apply
    back_and_forth = False
    #: True when the BS Detector runs on each new site (every strategy but plain BFS)
    detects = True

    def __init__(self, crawl, settings: DiscoverySettings):
        self.crawl = crawl
        self.settings = settings

    def expect_pages(self, pages) -> None:
        """The stored pages of a batch, before targets_for_page is asked about each: a strategy that
        reads something per site reads it for all of them at once here."""

    def targets_for_page(self, target, page, parsed, links: list[LinkOut]) -> list[Planned]:
        return [Planned(link.candidate, "forward") for link in links]

    def opens_sitemaps(self, target, page, parsed) -> bool:
        """Whether this stored HTML page asks for its host's sitemaps (crawlweb.services.sitemap_targets):
        a sitemap is one more link of the host, taken where the strategy follows the page's links."""
        return True

    def backlink_priorities(self, candidates: list[Candidate]) -> list[float | None]:
        """Priorities of backlinks found for a bilingual site (OBFC: no prioritization)."""
        return [0.0 for _ in candidates]
