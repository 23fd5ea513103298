"""M03 -- the Structure module of the layered frontier (seed 004).

Active rules, per site, over the GD graph (see structure_graph for GT/GC/GB/GD):
  * GDtop = the GD node with the highest score;
  * "gdtop_leaf":       leaves of GDtop                  -> Primary
  * "gdtop_child_leaf": leaves of GDtop's child nodes    -> Secondary
  * the rest ("unassigned")                              -> Reserve
  * redistribution, when GDtop has no leaves: GDtop's score, equally divided, is added into GB at
    its first-line children, and the same amount, negative, at GDtop's own GB node.
  * Structure rank: every Target's rank = GD score of the node holding its leaf (its deepest folder).

Choices where the method is open (each is tested):
  * GDtop is chosen among nodes with current Targets at or below them (GT score > 0): a GC-only
    node has nothing to distribute. Ties: the shallower node (assumption 1, closer to the root is
    more relevant), then the node with more children (assumption 3), then the smaller path.
  * Redistribution writes GB for the NEXT iteration, as the method says ("the next iteration picks
    differently"); in the current one the distribution stands as computed: no Primary for that site,
    its children's leaves Secondary, the rest Reserve. Bonus goes to the first-line children that hold
    current Targets (a bonus at a child with nothing to fetch would be wasted), and only a positive
    GDtop score is redistributed (spreading a negative score would punish the children).
  * A batch may mix sites; each site has its own GT/GD and its own state in ``self.states``.
  * "GT from the current Targets": the lead (frontier.placement) hands the module, for every site
    that received new Targets, the new Targets plus the site's other pending ones (up to
    ``max_site_targets``, shallowest first), and stores the placements and ranks of all of them.
    GT and GD are rebuilt each iteration from that set, so the division by GC acts on what is
    still to fetch: a folder crawled a lot falls behind the folders still waiting (a site's other
    language folder, say), instead of ranking each Target once, against its own batch only, when
    it was found. ``max_site_targets`` 0 = the new Targets only.
  * Re-placing a site's other pending Targets is amortized: they are written again only once the
    site's crawled pages (its GC) have grown by ``replace_growth`` (1.25) since they last were
    (``replacement_due``); until then they still count in GT, so the new Targets are placed against
    the whole site, but keep their stored layers. A big site was re-placed at every crawl step that
    found links on it: its 200 pending Targets rewritten hundreds of times over a crawl, the largest
    scoring job at 100,000 pages. With a factor, a site of n pages is re-placed O(log n) times.
    1.0 = at every batch.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Hashable, MutableMapping, Sequence

if TYPE_CHECKING:
    import networkx as nx

from .base import PRIMARY, SECONDARY, ConfigError, FrontierLayerModule, Rule, TargetInfo, require_keys
from .structure_graph import ROOT, SiteStructureState, TargetTree, build_gd

# Pending Targets of one site M03 places again with each new batch: bounds a step's work on a big site
# (each costs about 0.3 ms -- read, placed, stored, priority updated -- on SQLite; 200 keep it near 60 ms
# per site and batch). The shallowest are taken: they are the ones the crawl fetches next.
DEFAULT_MAX_SITE_TARGETS = 200
# Growth of a site's crawled pages after which its other pending Targets are placed again.
DEFAULT_REPLACE_GROWTH = 1.25


def replacement_due(pages_recorded: int, replaced_at_pages: int, growth: float = DEFAULT_REPLACE_GROWTH) -> bool:
    """Whether a site's other pending Targets are placed again: never re-placed yet (or not since a
    page was crawled), or its crawled pages have grown by ``growth`` since."""
    return replaced_at_pages == 0 or pages_recorded >= growth * replaced_at_pages


@dataclass
class SiteDistribution:
    site: str
    gd: nx.DiGraph
    top: str
    top_score: float
    children: set[str]
    redistributed: dict[str, float] = field(default_factory=dict)  # GB writes made this iteration


@dataclass
class StructureBatch:
    sites: list[str]  # per Target
    holders: list[str]  # per Target: node id holding its leaf
    per_site: dict[str, SiteDistribution]
    _evidence_cache: dict = field(default_factory=dict)

    def evidence(self, dist: "SiteDistribution", holder: str) -> dict:
        """Evidence for a leaf of ``holder``: computed once per node, a fresh dict per Target."""
        cached = self._evidence_cache.get((dist.site, holder))
        if cached is None:
            cached = self._evidence_cache[(dist.site, holder)] = _evidence(dist, holder)
        return dict(cached)


def select_top(gd: nx.DiGraph) -> str:
    """GDtop: highest score among nodes with current Targets; ties as the module docstring says."""
    best_key, best = None, ROOT
    for node, attrs in gd.nodes(data=True):
        if attrs["gt_score"] <= 0:
            continue
        key = (-attrs["score"], attrs["depth"], -gd.out_degree(node), node)
        if best_key is None or key < best_key:
            best_key, best = key, node
    return best


def redistribute(gd: nx.DiGraph, top: str, state: SiteStructureState) -> dict[str, float]:
    """Write GDtop's score into GB: +score/k at each of k first-line children, -score at GDtop."""
    score = gd.nodes[top]["score"]
    children = [c for c in gd.successors(top) if gd.nodes[c]["gt_score"] > 0]
    if score <= 0 or not children:
        return {}
    share = score / len(children)
    writes = {child: share for child in children}
    writes[top] = -score
    for node, amount in writes.items():
        state.add_bonus(node, amount)
    return writes


class LeafOfTopRule(Rule):
    """Active: the Target is a leaf of its site's GDtop (relation 0) or of a GDtop child (relation 1)."""

    active = True

    def __init__(self, name: str, layer: int, child_level: bool):
        self.name, self.layer, self.child_level = name, layer, child_level

    def fire(self, batch: StructureBatch, pending: Sequence[int]) -> dict[int, dict]:
        fired = {}
        for i in pending:
            dist = batch.per_site[batch.sites[i]]
            holder = batch.holders[i]
            if (holder in dist.children) if self.child_level else (holder == dist.top):
                fired[i] = batch.evidence(dist, holder)
        return fired


def _evidence(dist: SiteDistribution, holder: str) -> dict:
    return {
        "site": dist.site,
        "gd_top": dist.top,
        "gd_top_score": round(float(dist.top_score), 6),
        "node": holder,
        "node_score": round(float(dist.gd.nodes[holder]["score"]), 6),
        "redistributed": bool(dist.redistributed),
    }


class StructureModule(FrontierLayerModule):
    code = "M03"

    def __init__(self, redistribute: bool = True, states: MutableMapping[str, SiteStructureState] | None = None,
                 max_site_targets: int = DEFAULT_MAX_SITE_TARGETS, replace_growth: float = DEFAULT_REPLACE_GROWTH):
        self.redistribute = redistribute
        self.max_site_targets = max_site_targets
        self.replace_growth = replace_growth
        # GB and GC per site, kept in the crawl's context: the lead loads them here before
        # distribute() and stores them (node by node) after, since redistribution writes GB.
        self.states: MutableMapping[str, SiteStructureState] = {} if states is None else states
        self.rules: list[Rule] = [
            LeafOfTopRule("gdtop_leaf", PRIMARY, child_level=False),
            LeafOfTopRule("gdtop_child_leaf", SECONDARY, child_level=True),
        ]

    @classmethod
    def from_config(cls, config: dict) -> "StructureModule":
        """Keys: redistribute (true), max_site_targets (200), replace_growth (1.25)."""
        config = config or {}
        require_keys(config, {"redistribute", "max_site_targets", "replace_growth"}, "M03")
        value = config.get("redistribute", True)
        if not isinstance(value, bool):
            raise ConfigError(f"M03.redistribute: must be true or false, got {value!r}")
        limit = config.get("max_site_targets", DEFAULT_MAX_SITE_TARGETS)
        if not isinstance(limit, int) or isinstance(limit, bool) or not 0 <= limit <= 1_000_000:
            raise ConfigError(f"M03.max_site_targets: must be an integer in 0..1000000, got {limit!r}")
        growth = config.get("replace_growth", DEFAULT_REPLACE_GROWTH)
        if not isinstance(growth, (int, float)) or isinstance(growth, bool) or not 1.0 <= growth <= 100.0:
            raise ConfigError(f"M03.replace_growth: must be a number in 1.0..100.0, got {growth!r}")
        return cls(redistribute=value, max_site_targets=limit, replace_growth=float(growth))

    def state_for(self, site: str) -> SiteStructureState:
        state = self.states.get(site)
        if state is None:
            state = self.states[site] = SiteStructureState()
        return state

    def prepare(self, targets: list[TargetInfo]) -> StructureBatch:
        trees: dict[str, TargetTree] = {}
        sites: list[str] = []
        for target in targets:
            site = target.site_name()
            tree = trees.get(site)
            if tree is None:
                tree = trees[site] = TargetTree()
            tree.add(target.key, target.url)
            sites.append(site)
        holders = [trees[site].holder[t.key] for site, t in zip(sites, targets)]
        per_site = {}
        for site, tree in trees.items():
            state = self.state_for(site)
            gd = build_gd(tree.graph(), state)
            top = select_top(gd)
            dist = SiteDistribution(site, gd, top, gd.nodes[top]["score"], set(gd.successors(top)))
            if self.redistribute and not gd.nodes[top]["leaves"]:
                dist.redistributed = redistribute(gd, top, state)
            per_site[site] = dist
        return StructureBatch(sites, holders, per_site)

    def rank(self, batch: StructureBatch) -> list[float]:
        """Structure rank: the GD score of the node matching the Target's URL (its leaf's folder)."""
        return [
            float(batch.per_site[site].gd.nodes[holder]["score"])
            for site, holder in zip(batch.sites, batch.holders)
        ]

    def unassigned_evidence(self, batch: StructureBatch):
        return lambda i: batch.evidence(batch.per_site[batch.sites[i]], batch.holders[i])


def keys_by_rule(placements) -> dict[str, list[Hashable]]:
    """Placements grouped by rule name (handy in tests and reports)."""
    out: dict[str, list[Hashable]] = {}
    for p in placements:
        out.setdefault(p.rule, []).append(p.key)
    return out
