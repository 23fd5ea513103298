"""Upgrading a database: M03 states stored as one JSON document per site become node rows with the
same GC scores and GB bonuses, so a crawl that was running goes on from where it was."""
import pytest

from tests.migrating import migrate, migrate_every_app_to_its_latest

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE, AFTER = ("frontier", "0010_refill_cursor"), ("frontier", "0011_structure_nodes")


def test_a_sites_json_state_becomes_its_nodes():
    apps = migrate(BEFORE)
    Crawl, Site = apps.get_model("crawlweb", "Crawl"), apps.get_model("crawlweb", "Site")
    SiteStructure = apps.get_model("frontier", "SiteStructure")
    crawl = Crawl.objects.create(name="before the upgrade")
    site, empty = Site.objects.create(name="primer.rs"), Site.objects.create(name="prazan.rs")
    SiteStructure.objects.create(crawl=crawl, site=site, iterations=3, state={
        "version": 1, "gc": {"/": 5, "/sr/": 4}, "gb": {"/": -4.0, "/en/": 2.0},
        "crawled": ["/", "/sr/a.html", "/sr/b.html"]})
    SiteStructure.objects.create(crawl=crawl, site=empty)
    try:
        apps = migrate(AFTER)
        Node = apps.get_model("frontier", "SiteStructureNode")
        nodes = sorted(Node.objects.values_list("structure__site__name", "node", "gc", "gb"))
        assert nodes == [("primer.rs", "/", 5, -4.0), ("primer.rs", "/en/", None, 2.0), ("primer.rs", "/sr/", 4, None)]
        iterations = dict(apps.get_model("frontier", "SiteStructure").objects.values_list("site__name", "iterations"))
        assert iterations == {"primer.rs": 3, "prazan.rs": 0}
    finally:
        migrate_every_app_to_its_latest()
