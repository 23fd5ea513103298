"""Upgrading a database: sites stored before registrable domains read the public-suffix list's
private section get their owner's domain, and nothing else about them changes."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE, AFTER = ("crawlweb", "0005_crawl_time_limit"), ("crawlweb", "0006_registrable_domains_with_private_suffixes")


def migrate(*targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(list(targets))
    return executor.loader.project_state(list(targets)).apps


def migrate_every_app_to_its_latest():
    """Going back to BEFORE also unapplies other apps' migrations that depend on crawlweb's later ones:
    the tests after this one need every app's schema back, not crawlweb's alone."""
    migrate(*MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_github_pages_sites_stored_under_github_io_get_their_owners_domains():
    apps = migrate(BEFORE)
    Site = apps.get_model("crawlweb", "Site")
    Site.objects.create(name="ana.github.io", registrable_domain="github.io")
    Site.objects.create(name="en.marko.github.io", registrable_domain="github.io")
    Site.objects.create(name="en.primer.rs", registrable_domain="primer.rs")
    try:
        Site = migrate(AFTER).get_model("crawlweb", "Site")
        assert dict(Site.objects.values_list("name", "registrable_domain")) == {
            "ana.github.io": "ana.github.io", "en.marko.github.io": "marko.github.io", "en.primer.rs": "primer.rs"}
    finally:
        migrate_every_app_to_its_latest()
