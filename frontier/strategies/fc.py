"""FC, the forward crawler (Barbosa et al. 2011, Sec. 3): every forward link, in random order.

The order is random but reproducible: the priority of a link comes from a generator seeded with
the crawl's ``random_seed`` and the page, so two runs of the same experiment agree.
"""
from __future__ import annotations

import random

from frontier.strategies.base import Planned, Strategy


class ForwardCrawl(Strategy):
    name = "fc"

    def targets_for_page(self, target, page, parsed, links):
        rng = random.Random(f"{self.settings.random_seed}:{page.url}")
        # Seeds have priority 0; links get (-1, 0): after the seeds, in random order.
        return [Planned(link.candidate, "forward", -rng.random()) for link in links]
