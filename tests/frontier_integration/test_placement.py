"""Placing Targets with the crawl's modules: stored placements, priority, M03 state, running twice."""
import hashlib

import pytest

from crawlweb.models import Crawl, Site
from crawlweb.services.targets import Candidate, add_targets
from frontier.jobs import place_targets
from frontier.layers.structure_graph import SiteStructureState
from frontier.models import LayerPlacement, SiteStructure, SiteStructureNode, Target
from frontier.placement import record_crawled
from tests.frontier_integration.helpers import crawl_with_targets

pytestmark = pytest.mark.django_db


def placements_of(target_ids):
    return {(p.target.url, p.module): (p.layer_id, p.rule) for p in
            LayerPlacement.objects.filter(target_id__in=target_ids).select_related("target")}


def test_each_target_gets_one_placement_per_module_with_rule_and_evidence():
    crawl, ids = crawl_with_targets(["http://www.primer.rs/sr/usluge.html", "http://www.primer.rs/en/services.html",
                                     "http://www.primer.rs/de/dienste.html"])
    assert place_targets(crawl.pk, ids) == 3
    rows = {(p.target.url, p.module): p for p in LayerPlacement.objects.select_related("target")}
    assert len(rows) == 6
    sr = rows[("http://www.primer.rs/sr/usluge.html", "M01")]
    assert (sr.layer_id, sr.layer, sr.rule) == ("M01.L01", 1, "needle_sr")
    assert sr.evidence == {"language": "sr", "needle": "sr"}
    en = rows[("http://www.primer.rs/en/services.html", "M01")]
    assert (en.layer_id, en.rule, en.evidence["needle"]) == ("M01.L02", "needle_en", "en")
    de = rows[("http://www.primer.rs/de/dienste.html", "M01")]
    assert (de.layer_id, de.rule) == ("M01.L03", "needle_de")
    m03 = rows[("http://www.primer.rs/sr/usluge.html", "M03")]
    assert m03.layer_id.startswith("M03.L") and m03.rule and m03.evidence["site"] == "primer.rs"
    assert m03.rank is not None


def test_a_serbian_needle_outranks_a_reserve_target_and_unplaced_targets_stay_breadth_first():
    crawl, ids = crawl_with_targets(["http://www.primer.rs/sr/vesti.html", "http://www.primer.rs/de/nachrichten.html",
                                     "http://www.primer.rs/fr/nouvelles.html"])
    place_targets(crawl.pk, ids)
    priority = dict(Target.objects.filter(crawl=crawl).values_list("url", "priority"))
    assert priority["http://www.primer.rs/sr/vesti.html"] > 7.9  # Primary (2 points) x weight 4, plus M03
    assert priority["http://www.primer.rs/sr/vesti.html"] > max(priority["http://www.primer.rs/de/nachrichten.html"],
                                                                priority["http://www.primer.rs/fr/nouvelles.html"])
    breadth_first, bfs_ids = crawl_with_targets(["http://www.primer.rs/sr/vesti.html"], config={})
    assert place_targets(breadth_first.pk, bfs_ids) == 0, "no modules: nothing placed"
    assert Target.objects.get(pk=bfs_ids[0]).priority == -1.0  # -depth, as before
    assert not LayerPlacement.objects.filter(target_id__in=bfs_ids).exists()


def test_priority_follows_the_configured_weights():
    # M01 prefers the Serbian Target (needle sr: Primary, en: Secondary); M03 prefers the English
    # ones (GDtop "/" has no leaf: its children's leaves /en/x, /en/y are Secondary, /sr/deep/z Reserve).
    urls = ["http://www.primer.rs/en/x.html", "http://www.primer.rs/en/y.html", "http://www.primer.rs/sr/deep/z.html"]
    points = {"M01.L01": 2, "M01.L02": 1, "M01.L03": 0, "M03.L01": 2, "M03.L02": 1, "M03.L03": 0}
    for weights, best in [({"M01": 4, "M03": 1}, "http://www.primer.rs/sr/deep/z.html"),
                          ({"M01": 1, "M03": 10}, "http://www.primer.rs/en/x.html")]:
        Crawl.objects.all().delete()
        # Every module on the same layer points (2, 1, 0) and no rule points, so only the weights differ.
        crawl, ids = crawl_with_targets(urls, config={"modules": {"M01": {}, "M03": {}},
                                                      "priority": {"module_weights": weights, "module_layer_points": {},
                                                                   "rule_points": {}}})
        place_targets(crawl.pk, ids)
        placed = placements_of(ids)
        assert placed[(urls[0], "M03")] == ("M03.L02", "gdtop_child_leaf")
        assert placed[(urls[2], "M01")] == ("M01.L01", "needle_sr")
        priority = dict(Target.objects.filter(crawl=crawl).values_list("url", "priority"))
        assert max(priority, key=priority.get) == best
        for url in urls:
            layer_sum = sum(points[layer] * weights[module] for (u, module), (layer, _) in placed.items() if u == url)
            assert abs(priority[url] - layer_sum) < 2e-3, "layer points dominate; depth and rank break ties"


def test_m03_state_is_persisted_between_two_steps():
    # Step 1: root has no leaf -> redistribution writes GB (see test_structure_module); step 2
    # must read that GB back from the database, so /sr/ becomes GDtop and its leaves Primary.
    crawl, first = crawl_with_targets([f"http://www.primer.rs{p}" for p in
                                       ("/sr/a.html", "/sr/b.html", "/sr/c/d.html", "/en/e.html")])
    place_targets(crawl.pk, first)
    row = SiteStructure.objects.get(crawl=crawl, site__name="primer.rs")
    assert stored_state(row).gb == {"/": -4.0, "/en/": 2.0, "/sr/": 2.0} and row.iterations == 1
    assert placements_of(first)[("http://www.primer.rs/sr/a.html", "M03")] == ("M03.L02", "gdtop_child_leaf")
    second = add_targets(crawl, [Candidate(f"http://www.primer.rs{p}") for p in
                                 ("/sr/f.html", "/sr/g.html", "/sr/c/h.html", "/en/i.html")], origin="forward").new_ids
    place_targets(crawl.pk, second)
    assert placements_of(second)[("http://www.primer.rs/sr/f.html", "M03")] == ("M03.L01", "gdtop_leaf")
    row.refresh_from_db()
    assert row.iterations == 2


def stored_state(row: SiteStructure) -> SiteStructureState:
    return SiteStructureState.from_nodes(row.nodes.values_list("node", "gc", "gb"))


def test_crawled_pages_go_into_gc_and_only_the_nodes_they_change_are_written():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from crawlweb.models import Host, Page

    crawl, _ = crawl_with_targets(["http://www.primer.rs/sr/a.html"])
    site, host = Site.objects.get(name="primer.rs"), Host.objects.get(name="www.primer.rs")

    def page(path):
        url = f"http://www.primer.rs{path}"
        return Page.objects.create(crawl=crawl, site=site, host=host, url=url, final_url=url, status_code=200,
                                   fetched_at=timezone.now(), md5=hashlib.md5(path.encode()).hexdigest())

    assert record_crawled(crawl.pk, [page("/sr/vesti/x.html").pk]) == 1
    row = SiteStructure.objects.get(crawl=crawl, site=site)
    assert stored_state(row).gc == {"/": 3, "/sr/": 3, "/sr/vesti/": 3}  # created at 2, +1 per crawled URL
    with CaptureQueriesContext(connection) as queries:
        record_crawled(crawl.pk, [page("/sr/b.html").pk])
    assert stored_state(row).gc == {"/": 4, "/sr/": 4, "/sr/vesti/": 3}
    writes = [q["sql"] for q in queries.captured_queries if "sitestructurenode" in q["sql"].lower()
              and q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE"))]
    assert len(writes) == 1 and "/sr/" in writes[0] and "/sr/vesti/" not in writes[0], \
        "only the nodes on the new page's path are written"
    assert SiteStructure.objects.get(pk=row.pk).iterations == 0, "recording pages is not an M03 iteration"


def test_running_place_targets_twice_changes_nothing():
    crawl, ids = crawl_with_targets([f"http://www.primer.rs{p}" for p in
                                     ("/sr/a.html", "/sr/b.html", "/sr/c/d.html", "/en/e.html", "/uredjaj.html")])

    def snapshot():
        return (sorted(LayerPlacement.objects.values_list("target_id", "module", "layer_id", "rule", "evidence",
                                                          "rank", "placed_at")),
                sorted(Target.objects.values_list("id", "priority")),
                list(SiteStructure.objects.values_list("iterations", "updated_at")),
                sorted(SiteStructureNode.objects.values_list("structure_id", "node", "gc", "gb")))

    assert place_targets(crawl.pk, ids) == 5
    once = snapshot()
    assert place_targets(crawl.pk, ids) == 0
    assert snapshot() == once


def test_a_job_for_a_deleted_crawl_or_unknown_targets_does_nothing():
    assert place_targets(987654, [1, 2]) == 0
    crawl, _ = crawl_with_targets([])
    assert place_targets(crawl.pk, [987654]) == 0
    assert Crawl.objects.get(pk=crawl.pk).last_error == ""


def test_layers_dominate_then_depth_then_structure_rank():
    from frontier.layers.base import Placement
    from frontier.placement import layered_priority
    from frontier.priority import PriorityConfig

    config = PriorityConfig.from_dict({})

    def placed(m01_layer, m03_layer, rank):
        return {"M01": Placement(1, "M01", f"M01.L0{m01_layer}", m01_layer, "r", {}),
                "M03": Placement(1, "M03", f"M03.L0{m03_layer}", m03_layer, "r", {}, rank)}

    # The smallest layer step of the default combination: M03 Primary over Secondary (weight 1).
    deep_primary = layered_priority(placed(1, 1, -50.0), 100, config)
    shallow_secondary = layered_priority(placed(1, 2, 50.0), 0, config)
    assert deep_primary > shallow_secondary, "one layer step outweighs any depth and rank"
    assert layered_priority(placed(1, 1, -50.0), 2, config) > layered_priority(placed(1, 1, 50.0), 3, config)
    assert layered_priority(placed(1, 1, 5.0), 2, config) > layered_priority(placed(1, 1, 1.0), 2, config)


def test_a_sites_own_script_comes_after_every_page_whatever_its_layers():
    from frontier.layers.base import Placement
    from frontier.placement import layered_priority
    from frontier.priority import PriorityConfig

    config = PriorityConfig.from_dict({})
    primary = {"M01": Placement(1, "M01", "M01.L01", 1, "r", {}), "M03": Placement(1, "M03", "M03.L01", 1, "r", {}, 50.0)}
    reserve = {"M01": Placement(2, "M01", "M01.L03", 3, "r", {}), "M03": Placement(2, "M03", "M03.L03", 3, "r", {}, -50.0)}
    # sr.js is Primary by its name's language needle; a Reserve page at depth 100 still goes first
    assert layered_priority(primary, 1, config, script=True) < layered_priority(reserve, 100, config)
    assert layered_priority(primary, 1, config, script=True) > layered_priority(primary, 2, config, script=True)


def crawled(crawl, paths):
    """Pages stored for ``paths`` of www.primer.rs, walked into M03's GC."""
    from django.utils import timezone

    from crawlweb.models import Host, Page

    site, host = Site.objects.get(name="primer.rs"), Host.objects.get(name="www.primer.rs")
    pages = [Page.objects.create(crawl=crawl, site=site, host=host, url=f"http://www.primer.rs{p}",
                                 final_url=f"http://www.primer.rs{p}", status_code=200, fetched_at=timezone.now(),
                                 md5=hashlib.md5(p.encode()).hexdigest()) for p in paths]
    record_crawled(crawl.pk, [page.pk for page in pages])


def test_m03_places_a_sites_pending_targets_again_as_the_site_is_crawled():
    # Iteration 1: GT / 4, /sr/ 3, /en/ 1; the root has no leaf -> children's leaves Secondary,
    # GB /sr/ +2, /en/ +2, / -4 (as in test_m03_state_is_persisted_between_two_steps).
    crawl, first = crawl_with_targets([f"http://www.primer.rs{p}" for p in
                                       ("/sr/a.html", "/sr/b.html", "/sr/c.html", "/en/x.html")])
    place_targets(crawl.pk, first)
    english = Target.objects.get(url="http://www.primer.rs/en/x.html")
    assert placements_of([english.pk])[(english.url, "M03")] == ("M03.L02", "gdtop_child_leaf")
    before = english.priority
    # Ten Serbian pages are crawled (GC /sr/ = 12); one more Serbian link comes in. GT is built from
    # the site's current Targets: / 5/12 - 4, /sr/ 4/12 + 2 = 2.33, /en/ 1/2 + 2 = 2.5 -> GDtop /en/.
    crawled(crawl, [f"/sr/p{i}.html" for i in range(10)])
    second = add_targets(crawl, [Candidate("http://www.primer.rs/sr/d.html")], origin="forward", depth=1).new_ids
    assert place_targets(crawl.pk, second) == 1, "the job reports the Targets it placed for the first time"
    english.refresh_from_db()
    assert placements_of([english.pk])[(english.url, "M03")] == ("M03.L01", "gdtop_leaf")
    assert english.priority > before, "its priority follows its new layer"
    assert placements_of(second)[("http://www.primer.rs/sr/d.html", "M03")] == ("M03.L03", "unassigned")
    row = SiteStructure.objects.get(crawl=crawl, site__name="primer.rs")
    assert row.iterations == 2


def test_m03_places_a_sites_other_pending_targets_again_only_once_its_crawled_pages_grew_by_the_factor():
    urls = [f"http://www.primer.rs{p}" for p in ("/sr/a.html", "/sr/b.html", "/sr/c.html", "/en/x.html")]

    def batches(config=None):
        """Pages crawled before each batch of one new Target -> whether the first Targets were placed again."""
        Crawl.objects.all().delete()
        crawl, first = crawl_with_targets(urls, config=config)
        place_targets(crawl.pk, first)
        m03 = LayerPlacement.objects.filter(target_id__in=first, module="M03")
        placed_again = []
        for step, pages in enumerate((8, 1, 1, 1)):
            crawled(crawl, [f"/sr/s{step}p{i}.html" for i in range(pages)])
            stamps = dict(m03.values_list("target_id", "placed_at"))
            new = add_targets(crawl, [Candidate(f"http://www.primer.rs/sr/new{step}.html")], origin="forward").new_ids
            place_targets(crawl.pk, new)
            assert LayerPlacement.objects.filter(target_id__in=new, module="M03").count() == 1, "a new one, always"
            again = dict(m03.values_list("target_id", "placed_at"))
            assert len({again[pk] > stamps[pk] for pk in first}) == 1, "a site's others go together"
            placed_again.append(again[first[0]] > stamps[first[0]])
        row = SiteStructure.objects.get(crawl=crawl)
        return placed_again, (stored_state(row).pages_recorded, row.replaced_at_pages, row.iterations)

    # 8 pages crawled: the first re-placement; 9 < 8 x 1.25; 10 = 8 x 1.25: again; 11 < 12.5.
    assert batches() == ([True, False, True, False], (11, 10, 5))
    assert batches({"modules": {"M01": {}, "M03": {"replace_growth": 1.0}}}) == ([True] * 4, (11, 11, 5))


def test_m03_leaves_fetched_targets_and_with_max_site_targets_0_the_pending_ones_too():
    config = {"modules": {"M01": {}, "M03": {"max_site_targets": 0}}}
    crawl, first = crawl_with_targets([f"http://www.primer.rs{p}" for p in
                                       ("/sr/a.html", "/sr/b.html", "/sr/c.html", "/en/x.html")], config=config)
    place_targets(crawl.pk, first)
    Target.objects.filter(url="http://www.primer.rs/sr/a.html").update(state=Target.State.DONE)
    once = sorted(LayerPlacement.objects.filter(target_id__in=first).values_list("target_id", "layer_id", "placed_at"))
    crawled(crawl, [f"/sr/p{i}.html" for i in range(10)])
    second = add_targets(crawl, [Candidate("http://www.primer.rs/sr/d.html")], origin="forward", depth=1).new_ids
    place_targets(crawl.pk, second)
    assert sorted(LayerPlacement.objects.filter(target_id__in=first)
                  .values_list("target_id", "layer_id", "placed_at")) == once

    # With the default, pending Targets are placed again, a fetched one is not.
    Crawl.objects.all().delete()
    crawl, first = crawl_with_targets([f"http://www.primer.rs{p}" for p in
                                       ("/sr/a.html", "/sr/b.html", "/sr/c.html", "/en/x.html")])
    place_targets(crawl.pk, first)
    Target.objects.filter(url="http://www.primer.rs/sr/a.html").update(state=Target.State.DONE)
    m03 = LayerPlacement.objects.filter(target_id__in=first, module="M03")
    stamps = dict(m03.values_list("target__url", "placed_at"))
    second = add_targets(crawl, [Candidate("http://www.primer.rs/sr/d.html")], origin="forward", depth=1).new_ids
    place_targets(crawl.pk, second)
    again = dict(m03.values_list("target__url", "placed_at"))
    assert again["http://www.primer.rs/sr/a.html"] == stamps["http://www.primer.rs/sr/a.html"]
    assert again["http://www.primer.rs/en/x.html"] > stamps["http://www.primer.rs/en/x.html"]
    m01 = LayerPlacement.objects.filter(target_id__in=first, module="M01").values_list("placed_at", flat=True)
    assert max(m01) < min(again[url] for url in again if not url.endswith("/a.html")), "M01 places a batch once"


def test_by_default_a_needle_of_the_pair_outranks_an_estimated_language():
    crawl, ids = crawl_with_targets(["http://www.primer.rs/en/galerija.html", "http://www.primer.rs/uredjaj.html"],
                                    config={"modules": {"M01": {}}})
    place_targets(crawl.pk, ids)
    rules = {url: rule for (url, _), (_, rule) in placements_of(ids).items()}
    assert rules == {"http://www.primer.rs/en/galerija.html": "needle_en",
                     "http://www.primer.rs/uredjaj.html": "estimate_sr"}
    priority = dict(Target.objects.filter(crawl=crawl).values_list("url", "priority"))
    assert priority["http://www.primer.rs/en/galerija.html"] - priority["http://www.primer.rs/uredjaj.html"] == \
        pytest.approx(3.0), "Secondary and Primary alike (2 x 3), plus the needle's point (1 x 3)"


def test_m03_places_again_each_sites_shallowest_pending_targets_in_statements_that_do_not_grow_with_sites():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    config = {"modules": {"M01": {}, "M03": {"max_site_targets": 2}}}
    crawl = Crawl.objects.create(name="placement", page_budget=10, config=config)
    hosts = [f"www.site{i}.rs" for i in range(6)]
    first = []
    for depth, path in ((3, "/c/deep.html"), (1, "/a.html"), (2, "/b/mid.html"), (1, "/z.html")):
        first += add_targets(crawl, [Candidate(f"http://{host}{path}") for host in hosts],
                             origin="forward", depth=depth).new_ids
    place_targets(crawl.pk, first)
    m03 = LayerPlacement.objects.filter(target_id__in=first, module="M03")
    stamps = dict(m03.values_list("target__url", "placed_at"))

    def place_one_new_target_in(some_hosts):
        new = add_targets(crawl, [Candidate(f"http://{host}/new.html") for host in some_hosts],
                          origin="forward", depth=1).new_ids
        with CaptureQueriesContext(connection) as queries:
            place_targets(crawl.pk, new)
        return len(queries)

    statements_for_two = place_one_new_target_in(hosts[:2])
    again = dict(m03.values_list("target__url", "placed_at"))
    replaced = sorted(url for url in again if again[url] > stamps[url])
    assert replaced == [f"http://{host}{path}" for host in hosts[:2] for path in ("/a.html", "/z.html")], \
        "each touched site's two shallowest pending Targets, no other"
    assert place_one_new_target_in(hosts[2:]) == statements_for_two, "four sites take the statements of two"


def test_m03_re_places_a_big_sites_shallowest_pending_targets_not_the_new_ones_nor_the_fetched():
    config = {"modules": {"M01": {}, "M03": {"max_site_targets": 3, "replace_growth": 1.0}}}
    crawl = Crawl.objects.create(name="big site", page_budget=100, config=config)
    first = []
    for depth in (5, 1, 4, 2, 3, 1):  # two at depth 1: the older one comes first
        first += add_targets(crawl, [Candidate(f"http://www.primer.rs/d{depth}/p{len(first)}.html")],
                             origin="forward", depth=depth).new_ids
    first += add_targets(crawl, [Candidate("http://www.drugi.rs/a.html")], origin="forward", depth=1).new_ids
    place_targets(crawl.pk, first)
    Target.objects.filter(pk=first[1]).update(state=Target.State.DONE)  # the oldest at depth 1, fetched
    m03 = LayerPlacement.objects.filter(target_id__in=first, module="M03")
    stamps = dict(m03.values_list("target_id", "placed_at"))

    new = add_targets(crawl, [Candidate(f"http://www.primer.rs/new{i}.html") for i in range(2)],
                      origin="forward", depth=0).new_ids  # shallower than every other: never its own "current"
    place_targets(crawl.pk, new)
    again = dict(m03.values_list("target_id", "placed_at"))
    replaced = [pk for pk in first if again[pk] > stamps[pk]]
    assert replaced == [first[3], first[4], first[5]], "depths 2, 3 and the other 1: the site's three shallowest pending"
    assert LayerPlacement.objects.filter(target_id__in=new, module="M03").count() == 2
