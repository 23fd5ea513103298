"""COBFC: OBFC with the Backlink and Forward-Link classifiers (Barbosa et al. 2011, Sec. 2.2).

Until the first learning iteration there are no models and COBFC behaves as OBFC. Afterwards
every new link is scored by its queue's latest classifier and placed by ``frontier.learning``.
"""
from __future__ import annotations

from functools import cached_property

from frontier.learning import ClassifierSet
from frontier.strategies.base import Planned
from frontier.strategies.obfc import BackForwardCrawl


class ClassifierBackForwardCrawl(BackForwardCrawl):
    name = "cobfc"

    @cached_property
    def classifiers(self) -> ClassifierSet:
        """The crawl's latest link classifiers, read when first used: most of what asks for the crawl's
        strategy (its queues, its settings, whether it goes back and forth) uses none, and reading them
        for each was a twentieth of a COBFC crawl step late in a long crawl (two queries every time)."""
        return ClassifierSet.latest(self.crawl, self.settings)

    def targets_for_page(self, target, page, parsed, links):
        planned = super().targets_for_page(target, page, parsed, links)
        forward = [p for p in planned if not p.held]  # held pages keep the refill's order, shallowest first
        scores = self.classifiers.priorities("forward", [p.candidate for p in forward])
        return [Planned(p.candidate, p.origin, s) for p, s in zip(forward, scores)] + [p for p in planned if p.held]

    def backlink_priorities(self, candidates):
        return self.classifiers.priorities("backlink", candidates)
