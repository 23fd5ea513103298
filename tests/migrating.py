"""Moving a test database between migrations, to check what an upgrade does to rows stored before it."""
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(*targets):
    """Migrate to ``targets`` ((app, migration) each); returns the apps as of then."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(list(targets))
    return executor.loader.project_state(list(targets)).apps


def migrate_every_app_to_its_latest():
    """Going back also unapplies other apps' migrations that depend on the later ones: the tests after
    a migration test need every app's schema back, not one app's alone."""
    migrate(*MigrationExecutor(connection).loader.graph.leaf_nodes())
