"""Link-path graphs of the Structure module M03 (seed 004): GT, GC, GB and GD.

URL path segments, left to right, are a parent -> child hierarchy. Choices where the method is open:
  * One tree per site. Its ROOT IS A NODE, id "/" (the site's top folder); every Target walks through
    it, so it starts as the best-scored node -- the method's first assumption, "closer to the root
    is more relevant" -- until crawling (GC) or redistribution (GB) lowers it.
  * Node ids are folder paths ending in "/" ("/sr/vesti/"); a node's name is its last segment.
  * A leaf is a Target, held by its deepest folder: "/a/b/page.html" is leaf "page.html" of "/a/b/";
    "/a/b/" (and "/a/b/?page=2") is the default-index leaf of "/a/b/". A last segment without a
    trailing slash is a file, so "/a/b" is leaf "b" of "/a/"; the query stays with the leaf and the
    fragment is ignored (it is not a path segment).
  * Segments are compared as linked (no percent-decoding, case kept): the tree mirrors the server's paths.
  * GT: a node's score rises by one per unique Target walking through it (several link instances
    of one Target count once -- the module merges them by key first).
  * GC: a node is created with score 2 and rises by one per unique crawled URL walking through it,
    so GC score = 2 + crawled URLs at or below the node, and 2 is also the divisor for a node GC
    does not have -- a node never crawled is divided like a freshly created one.
  * GD: the union of GT and GC nodes; score = GT score / GC score (2 where GC lacks the node;
    0 for GC-only nodes), plus the GB score of the node when GB has it. When GC is empty GD is a
    clone of GT (no division), plus GB.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Hashable, Iterable

if TYPE_CHECKING:  # networkx costs every process 0.13 s at start; only crawls with M03 build graphs
    import networkx as nx

from .tokens import relative_part

ROOT = "/"
GC_INITIAL_SCORE = 2


def split_url(url: str) -> tuple[list[str], str]:
    """(folder node ids from the root down, leaf name) of ``url``; leaf "" is a folder's default index."""
    path, _, query = relative_part(url).partition("#")[0].partition("?")
    folder_path, _, leaf = path.rpartition("/")
    nodes = list(_folder_nodes(folder_path))
    if query:
        leaf += "?" + query
    return nodes, leaf


@lru_cache(maxsize=65536)
def _folder_nodes(folder_path: str) -> tuple[str, ...]:
    """"/a/b" -> ("/", "/a/", "/a/b/"); cached because a site's Targets share few folders."""
    nodes = [ROOT]
    prefix = ROOT
    for segment in folder_path.split("/"):
        if segment:
            prefix = prefix + segment + "/"
            nodes.append(prefix)
    return tuple(nodes)


def node_name(node_id: str) -> str:
    return "" if node_id == ROOT else node_id.rstrip("/").rsplit("/", 1)[-1]


def _parent(node_id: str) -> str | None:
    if node_id == ROOT:
        return None
    return node_id.rstrip("/").rsplit("/", 1)[0] + "/"


def tree_from_scores(scores: dict[str, float], leaves: dict[str, list] | None = None) -> nx.DiGraph:
    """A DiGraph (parent -> child edges) with node attrs name, score, depth and leaves."""
    import networkx as nx

    graph = nx.DiGraph()
    leaves = leaves or {}
    graph.add_nodes_from(
        (node, {"name": node_name(node), "score": score, "depth": node.count("/") - 1, "leaves": leaves.get(node, [])})
        for node, score in scores.items()
    )
    graph.add_edges_from((_parent(node), node) for node in scores if node != ROOT)
    return graph


@dataclass
class TargetTree:
    """GT of one site: per Target, its folder path; per node, its score and leaf Targets."""

    scores: dict[str, int] = field(default_factory=dict)
    leaves: dict[str, list[Hashable]] = field(default_factory=dict)
    holder: dict[Hashable, str] = field(default_factory=dict)  # Target key -> deepest folder node

    def add(self, key: Hashable, url: str) -> None:
        if key in self.holder:  # once per unique Target
            return
        nodes, _leaf = split_url(url)
        scores = self.scores
        for node in nodes:
            scores[node] = scores.get(node, 0) + 1
        self.leaves.setdefault(nodes[-1], []).append(key)
        self.holder[key] = nodes[-1]

    def graph(self) -> nx.DiGraph:
        return tree_from_scores(self.scores, self.leaves)


@dataclass
class SiteStructureState:
    """What M03 keeps per (crawl, site) between iterations: GC and GB (the lead stores them node by node).

    ``crawled`` makes recording a URL twice into this object change nothing; the lead does not store
    it (it grows with every page of the site): it records each stored page once, in the crawl step
    that stored it.
    """

    gc: dict[str, int] = field(default_factory=dict)
    gb: dict[str, float] = field(default_factory=dict)
    crawled: set[str] = field(default_factory=set)

    def record_crawled(self, urls: Iterable[str]) -> None:
        """Walk crawled URLs into GC, once per unique URL (fragment ignored)."""
        for url in urls:
            identity = relative_part(url).partition("#")[0] or "/"
            if identity in self.crawled:
                continue
            self.crawled.add(identity)
            for node in split_url(url)[0]:
                self.gc[node] = self.gc.get(node, GC_INITIAL_SCORE) + 1

    @property
    def pages_recorded(self) -> int:
        """Crawled URLs walked into GC: each adds one at the root, which starts at GC_INITIAL_SCORE."""
        return self.gc[ROOT] - GC_INITIAL_SCORE if ROOT in self.gc else 0

    def add_bonus(self, node: str, amount: float) -> None:
        self.gb[node] = self.gb.get(node, 0.0) + amount

    def gc_graph(self) -> nx.DiGraph:
        return tree_from_scores(self.gc)

    def gb_graph(self) -> nx.DiGraph:
        return _forest(self.gb)

    def nodes(self) -> dict[str, tuple[int | None, float | None]]:
        """Each node of GC or GB -> (its GC score, its GB bonus), None where that graph lacks it."""
        return {node: (self.gc.get(node), self.gb.get(node)) for node in self.gc.keys() | self.gb.keys()}

    @classmethod
    def from_nodes(cls, rows: Iterable[tuple[str, int | None, float | None]]) -> "SiteStructureState":
        """The state whose ``nodes()`` are ``rows`` of (node, GC score or None, GB bonus or None)."""
        state = cls()
        for node, gc, gb in rows:
            if gc is not None:
                state.gc[node] = int(gc)
            if gb is not None:
                state.gb[node] = float(gb)
        return state


def _forest(scores: dict[str, float]) -> nx.DiGraph:
    """GB holds only the nodes bonuses were written to; link those whose parent is present."""
    import networkx as nx

    graph = nx.DiGraph()
    graph.add_nodes_from((node, {"name": node_name(node), "score": s}) for node, s in scores.items())
    graph.add_edges_from((_parent(n), n) for n in scores if _parent(n) in scores)
    return graph


def build_gd(gt: nx.DiGraph, state: SiteStructureState) -> nx.DiGraph:
    """GD = GT union GC, score = GT/GC (2 when GC lacks the node) + GB; a clone of GT (+GB) when GC is empty."""
    import networkx as nx

    gd = gt.copy() if not state.gc else nx.compose(tree_from_scores({n: 0 for n in state.gc}), gt)
    gc, gb = state.gc, state.gb
    for node, attrs in gd.nodes(data=True):
        gt_score = gt.nodes[node]["score"] if node in gt else 0
        attrs["gt_score"] = gt_score
        score = gt_score if not gc else gt_score / gc.get(node, GC_INITIAL_SCORE)
        attrs["score"] = score + gb.get(node, 0.0)
        attrs.setdefault("leaves", [])
    return gd
