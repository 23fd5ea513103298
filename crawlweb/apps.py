from django.apps import AppConfig
from django.db import connections
from django.db.models.signals import post_migrate

from crawlweb.tallies import triggers


class CrawlwebConfig(AppConfig):
    name = "crawlweb"
    verbose_name = "Crawl"

    def ready(self):
        from crawlweb import checks  # noqa: F401 -- registers the project's system checks

        post_migrate.connect(ensure_tally_triggers, sender=self)


def ensure_tally_triggers(sender, using="default", **kwargs):
    """After every migrate: the tally triggers as the code has them (a table SQLite rebuilt lost its own)."""
    triggers.ensure(connections[using])
