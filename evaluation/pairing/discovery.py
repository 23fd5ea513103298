"""Site discovery over the seed sites' link graph (Pupsniffer Def. 6–8).

Input is site level: ``edges[(from_site, to_site)] = number of links``.  To keep the
cost low (as in the method) Linkout and PageRank use only links among the seed sites:
- Def. 6, Linkout(w): links from w to the other seed sites;
- Def. 7, PR(w): networkx.pagerank of the seed graph, edges weighted by link counts;
- Def. 8, WPR(w) = C(w)·PR(w), C(w) the site credibility (Def. 5).
Each external site (not a seed) linked from the seeds scores ΣLinkout, ΣPR and ΣWPR
over the seed sites that link to it; the top K (500 in the method) by the chosen
measure become new seeds.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import networkx as nx

MEASURES = ("wpr", "pr", "linkout")


@dataclass
class DiscoveredSite:
    site: str
    sum_linkout: float
    sum_pr: float
    sum_wpr: float
    linked_from: tuple[str, ...]

    def measure(self, name: str) -> float:
        return {"wpr": self.sum_wpr, "pr": self.sum_pr, "linkout": self.sum_linkout}[name]


@dataclass
class SeedScores:
    linkout: dict[str, int]
    pagerank: dict[str, float]
    wpr: dict[str, float]


def seed_scores(seeds: Iterable[str], edges: Mapping[tuple[str, str], int],
                site_credibility: Mapping[str, float], *, alpha: float = 0.85) -> SeedScores:
    seeds = list(dict.fromkeys(seeds))
    seed_set = set(seeds)
    graph = nx.DiGraph()
    graph.add_nodes_from(seeds)
    linkout = {w: 0 for w in seeds}
    for (src, dst), count in edges.items():
        if count < 0:
            raise ValueError(f"negative link count for edge {src!r} → {dst!r}")
        if src in seed_set and dst in seed_set and src != dst and count:
            linkout[src] += count
            graph.add_edge(src, dst, weight=count)
    pagerank = nx.pagerank(graph, alpha=alpha, weight="weight") if seeds else {}
    wpr = {w: site_credibility.get(w, 0.0) * pagerank[w] for w in seeds}
    return SeedScores(linkout, pagerank, wpr)


def discover_sites(seeds: Iterable[str], edges: Mapping[tuple[str, str], int],
                   site_credibility: Mapping[str, float], *, top_k: int = 500,
                   measure: str = "wpr", alpha: float = 0.85) -> list[DiscoveredSite]:
    """External sites ranked by ΣWPR (default), ΣPR or ΣLinkout; all three are returned."""
    if measure not in MEASURES:
        raise ValueError(f"unknown measure {measure!r}; use one of {MEASURES}")
    if top_k < 0:
        raise ValueError("top_k must be ≥ 0")
    seeds = list(dict.fromkeys(seeds))
    scores = seed_scores(seeds, edges, site_credibility, alpha=alpha)
    seed_set = set(seeds)
    found: dict[str, DiscoveredSite] = {}
    for (src, dst), count in sorted(edges.items()):
        if src not in seed_set or dst in seed_set or not count:
            continue
        entry = found.get(dst)
        if entry is None:
            entry = found[dst] = DiscoveredSite(dst, 0.0, 0.0, 0.0, ())
        if src in entry.linked_from:
            continue
        entry.linked_from += (src,)
        entry.sum_linkout += scores.linkout[src]
        entry.sum_pr += scores.pagerank[src]
        entry.sum_wpr += scores.wpr[src]
    ranked = sorted(found.values(), key=lambda d: (-d.measure(measure), d.site))
    return ranked[:top_k]
