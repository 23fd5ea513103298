"""M03 Structure module on small hand-drawn link-path trees."""

import networkx as nx
import pytest

from frontier.layers.base import TargetInfo
from frontier.layers.structure import StructureModule, keys_by_rule
from frontier.layers.structure_graph import SiteStructureState, TargetTree, build_gd, split_url


def targets(*paths, site="primer.rs"):
    return [TargetInfo(path, f"http://www.{site}{path}") for path in paths]


def placed(placements):
    return {p.key: (p.layer, p.rule) for p in placements}


def test_url_segments_become_folders_and_the_last_segment_a_leaf():
    assert split_url("http://a.rs/a/b/page.html#top") == (["/", "/a/", "/a/b/"], "page.html")
    assert split_url("http://a.rs/a/b/?page=2") == (["/", "/a/", "/a/b/"], "?page=2")
    assert split_url("http://a.rs/a/b") == (["/", "/a/"], "b")  # no trailing slash: a file
    assert split_url("http://a.rs") == (["/"], "")


def test_tree_scores_count_unique_targets_through_each_node():
    tree = TargetTree()
    for key, url in [("x", "http://a.rs/a/x.html"), ("y", "http://a.rs/a/b/y.html"), ("x", "http://a.rs/a/x.html")]:
        tree.add(key, url)
    graph = tree.graph()
    assert isinstance(graph, nx.DiGraph)
    assert {n: graph.nodes[n]["score"] for n in graph} == {"/": 2, "/a/": 2, "/a/b/": 1}
    assert sorted(graph.edges) == [("/", "/a/"), ("/a/", "/a/b/")]
    assert graph.nodes["/a/b/"]["name"] == "b" and graph.nodes["/a/"]["leaves"] == ["x"]


def test_root_is_gdtop_when_nothing_was_crawled_its_leaves_primary_childrens_secondary():
    # /            <- home (leaf)          GT: / 5, /a/ 3, /a/b/ 1, /c/ 1
    # ├── a/       <- x.html, y.html
    # │   └── b/   <- z.html
    # └── c/       <- w.html
    module = StructureModule()
    result = module.distribute(targets("/", "/a/x.html", "/a/y.html", "/a/b/z.html", "/c/w.html"))
    assert placed(result) == {
        "/": (1, "gdtop_leaf"),
        "/a/x.html": (2, "gdtop_child_leaf"), "/a/y.html": (2, "gdtop_child_leaf"),
        "/c/w.html": (2, "gdtop_child_leaf"),
        "/a/b/z.html": (3, "unassigned"),
    }
    # Structure rank = GD score of the node holding the leaf (GC empty: GD is a clone of GT).
    assert {p.key: p.rank for p in result} == {"/": 5, "/a/x.html": 3, "/a/y.html": 3, "/a/b/z.html": 1, "/c/w.html": 1}
    assert result[0].evidence["gd_top"] == "/" and result[0].layer_id == "M03.L01"


def test_crawled_urls_divide_gt_scores_so_a_fresh_folder_wins():
    module = StructureModule()
    state = module.state_for("primer.rs")
    state.record_crawled(["http://primer.rs/", "http://primer.rs/p1.html", "http://primer.rs/p2.html",
                          "http://primer.rs/p3.html", "http://primer.rs/p3.html#again"])
    assert state.gc == {"/": 2 + 4}  # created at 2, +1 per unique crawled URL
    result = module.distribute(targets("/a/x.html", "/a/y.html", "/a/b/z.html", "/c/w.html", "/q.html"))
    # GD: / 5/6 = 0.83, /a/ 3/2 = 1.5, /a/b/ 1/2, /c/ 1/2  -> GDtop = /a/
    assert placed(result) == {
        "/a/x.html": (1, "gdtop_leaf"), "/a/y.html": (1, "gdtop_leaf"),
        "/a/b/z.html": (2, "gdtop_child_leaf"),
        "/c/w.html": (3, "unassigned"), "/q.html": (3, "unassigned"),
    }
    ranks = {p.key: p.rank for p in result}
    assert ranks["/a/x.html"] == 1.5 and ranks["/q.html"] == pytest.approx(5 / 6) and ranks["/c/w.html"] == 0.5


def test_gd_is_the_union_of_gt_and_gc_with_zero_for_crawled_only_folders():
    tree = TargetTree()
    tree.add("k", "http://a.rs/new/k.html")
    state = SiteStructureState()
    state.record_crawled(["http://a.rs/old/p.html"])
    gd = build_gd(tree.graph(), state)
    assert {n: gd.nodes[n]["score"] for n in gd} == {"/": 1 / 3, "/old/": 0.0, "/new/": 1 / 2}
    assert set(gd.successors("/")) == {"/old/", "/new/"}


def test_ties_go_to_the_shallower_node_then_to_more_children():
    module = StructureModule(redistribute=False)
    # GC root = 2 + 2 crawled = 4. GD: / 4/4 = 1, /a/ 1/2, /b/ 2/2 = 1, /b/z/ 1/2: tie -> the root (shallowest).
    module.state_for("primer.rs").record_crawled(["http://primer.rs/r.html", "http://primer.rs/s.html"])
    result = module.distribute(targets("/t.html", "/a/x.html", "/b/y.html", "/b/z/v.html"))
    assert placed(result)["/t.html"] == (1, "gdtop_leaf")
    # Among equal-depth equal-score folders the one with more children wins.
    module = StructureModule(redistribute=False)
    module.state_for("primer.rs").record_crawled([f"http://primer.rs/{i}.html" for i in range(7)])
    result = module.distribute(targets("/a/x.html", "/a/y.html", "/b/k/y.html", "/b/m/y.html"))
    # GD: / = 4/9, /a/ = 2/2 = 1, /b/ = 2/2 = 1 (two children) -> /b/
    assert result[2].evidence["gd_top"] == "/b/"


def test_redistribution_writes_gb_and_the_next_iteration_picks_a_child():
    # /                      no leaf at the root: GT / 4, /sr/ 3, /sr/c/ 1, /en/ 1
    # ├── sr/  <- a, b
    # │   └── c/ <- d
    # └── en/  <- e
    batch = targets("/sr/a.html", "/sr/b.html", "/sr/c/d.html", "/en/e.html")
    first = StructureModule()
    one = first.distribute(batch)
    assert placed(one) == {
        "/sr/a.html": (2, "gdtop_child_leaf"), "/sr/b.html": (2, "gdtop_child_leaf"),
        "/en/e.html": (2, "gdtop_child_leaf"), "/sr/c/d.html": (3, "unassigned"),
    }
    assert one[0].evidence["redistributed"] is True
    state = first.states["primer.rs"]
    assert state.gb == {"/sr/": 2.0, "/en/": 2.0, "/": -4.0}  # 4 split over 2 children; root neutralized
    gb = state.gb_graph()
    assert gb.nodes["/sr/"]["score"] == 2.0 and ("/", "/sr/") in gb.edges

    # The lead stores the state node by node and restores it for the next iteration.
    restored = SiteStructureState.from_nodes((node, *scores) for node, scores in state.nodes().items())
    second = StructureModule(states={"primer.rs": restored})
    two = second.distribute(batch)
    # GD: / 4 - 4 = 0, /sr/ 3 + 2 = 5, /en/ 1 + 2 = 3, /sr/c/ 1 -> GDtop = /sr/ (has leaves: no redistribution)
    assert placed(two) == {
        "/sr/a.html": (1, "gdtop_leaf"), "/sr/b.html": (1, "gdtop_leaf"),
        "/sr/c/d.html": (2, "gdtop_child_leaf"), "/en/e.html": (3, "unassigned"),
    }
    assert {p.key: p.rank for p in two}["/en/e.html"] == 3.0
    assert restored.gb == {"/sr/": 2.0, "/en/": 2.0, "/": -4.0}


def test_redistribution_can_be_switched_off():
    module = StructureModule.from_config({"redistribute": False})
    module.distribute(targets("/sr/a.html", "/en/e.html"))
    assert module.states["primer.rs"].gb == {}


def test_each_site_has_its_own_tree_and_gdtop():
    module = StructureModule()
    batch = targets("/a/x.html", "/a/y.html", site="one.rs") + targets("/", "/b/z.html", site="two.rs")
    result = module.distribute(batch)
    tops = {p.evidence["site"]: p.evidence["gd_top"] for p in result}
    assert tops == {"one.rs": "/", "two.rs": "/"}
    assert placed(result)["/"] == (1, "gdtop_leaf")
    assert module.states["one.rs"].gb == {"/a/": 2.0, "/": -2.0}  # one.rs root had no leaf
    assert module.states["two.rs"].gb == {}


def test_several_link_instances_of_a_target_count_once():
    module = StructureModule()
    batch = [TargetInfo("x", "http://a.rs/p/x.html", "one"), TargetInfo("x", "http://a.rs/p/x.html", "two"),
             TargetInfo("y", "http://a.rs/y.html")]
    result = module.distribute(batch)
    assert [p.key for p in result] == ["x", "y"]
    assert {p.key: p.rank for p in result} == {"x": 1, "y": 2}


def test_state_round_trips_through_its_nodes():
    state = SiteStructureState()
    state.record_crawled(["http://a.rs/a/b.html?x=1"])
    state.add_bonus("/a/", 1.5)
    state.add_bonus("/z/", -1.0)
    assert state.nodes() == {"/": (3, None), "/a/": (3, 1.5), "/z/": (None, -1.0)}
    again = SiteStructureState.from_nodes((node, *scores) for node, scores in state.nodes().items())
    assert (again.gc, again.gb) == (state.gc, state.gb)


def test_keys_by_rule_groups_placements():
    result = StructureModule().distribute(targets("/", "/a/x.html"))
    assert keys_by_rule(result) == {"gdtop_leaf": ["/"], "gdtop_child_leaf": ["/a/x.html"]}
