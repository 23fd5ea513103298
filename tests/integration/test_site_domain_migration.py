"""Upgrading a database: sites stored before registrable domains read the public-suffix list's
private section get their owner's domain, and nothing else about them changes."""
import pytest

from tests.migrating import migrate, migrate_every_app_to_its_latest

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE, AFTER = ("crawlweb", "0005_crawl_time_limit"), ("crawlweb", "0006_registrable_domains_with_private_suffixes")


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
