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
        from crawlweb.services import crawl_policy
        from frontier.strategies import strategy_for
        from frontier.strategies.queues import queue_order

        # The crawl engine (a floor below) asks the frontier through crawl_policy: it never imports it.
        crawl_policy.provide(strategy_for=strategy_for, queue_order=queue_order, config_errors=config_errors)


def config_errors(config: dict) -> dict[str, str]:
    """Errors of the frontier's keys of a crawl's config: the discovery keys, then "modules" and "priority"."""
    from frontier.placement import frontier_config_errors
    from frontier.discovery_settings import errors as discovery_errors

    return {**discovery_errors(config), **frontier_config_errors(config)}
