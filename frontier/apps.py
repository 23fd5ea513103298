from django.apps import AppConfig
from django.db import connections
from django.db.models.signals import post_migrate

from frontier.host_queue_triggers import ensure_triggers


def ensure_host_queue_triggers(using, **kwargs):
    """After every migrate: SQLite drops a table's triggers when a migration rebuilds the table,
    and leasing depends on them (frontier.host_queue_triggers)."""
    connection = connections[using]
    if "frontier_hostqueue" in connection.introspection.table_names():
        ensure_triggers(connection)


class FrontierConfig(AppConfig):
    name = "frontier"
    verbose_name = "Frontier"

    def ready(self):
        post_migrate.connect(ensure_host_queue_triggers, sender=self, dispatch_uid="frontier_host_queue_triggers")
