"""Installing the tally triggers (crawlweb.tallies.trigger_sql) and counting the tallies afresh; and
the index on Target.fetched_at the live panel reads.

Installed by migration crawlweb 0009 and again after every `migrate` (CrawlwebConfig.ready): SQLite
rebuilds a table to alter it (a later migration of Target, Page or LayerPlacement), and the rebuilt
table has no trigger (nor an index its model does not name). When a trigger was missing, rows may
have changed uncounted, so the tallies are counted afresh from the rows (one pass over them, with
the workers stopped as for any migration).
"""
from __future__ import annotations

from crawlweb.tallies import trigger_sql

# Targets fetched lately, per crawl: the live panel's last-minute rate reads a range of it. Only
# fetched Targets have a fetched_at, so the pending millions are not in it.
FETCHED_INDEX = "target_fetched_at"
TALLY_TABLES = ("crawlweb_targettally", "crawlweb_pagetally", "crawlweb_layertally", "crawlweb_membertally",
                "crawlweb_membercount")


def install(connection) -> None:
    statements = trigger_sql.pg_install_all() if connection.vendor == "postgresql" else trigger_sql.sqlite_install_all()
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":  # SQLite has no CREATE OR REPLACE TRIGGER
            for statement in trigger_sql.sqlite_drop_all():
                cursor.execute(statement)
        for statement in statements:
            cursor.execute(statement)


def drop(connection) -> None:
    statements = trigger_sql.pg_drop_all() if connection.vendor == "postgresql" else trigger_sql.sqlite_drop_all()
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def recount(connection) -> None:
    """Every tally from its source rows (folded rows only, no delta left)."""
    with connection.cursor() as cursor:
        for statement in trigger_sql.recount_all():
            cursor.execute(statement)


def missing(connection) -> list[str]:
    """Names of the tally triggers the database lacks."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        present = {name for (name,) in cursor.fetchall()}
    return [name for name, _table in trigger_sql.expected_triggers(connection.vendor) if name not in present]


def tune_autovacuum(connection) -> None:
    """PostgreSQL: vacuum a tally table after 10,000 dead rows, whatever its size. Folds delete deltas
    all the time; left to the default (a fifth of the table), the deltas' index of a crawl with 200,000
    hosts carried tens of thousands of dead entries, and a read of its few live ones took 55 ms, not 8."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for table in TALLY_TABLES:
            cursor.execute(f"ALTER TABLE {table} SET (autovacuum_vacuum_scale_factor = 0, "
                           "autovacuum_vacuum_threshold = 10000)")


def ensure_fetched_index(connection) -> None:
    with connection.cursor() as cursor:
        if FETCHED_INDEX in connection.introspection.get_constraints(cursor, "frontier_target"):
            return  # not even IF NOT EXISTS: it locks the table
        cursor.execute(f"CREATE INDEX IF NOT EXISTS {FETCHED_INDEX} ON frontier_target (crawl_id, fetched_at) "
                       "WHERE fetched_at IS NOT NULL")


def drop_fetched_index(connection) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX IF EXISTS {FETCHED_INDEX}")


def ensure(connection) -> bool:
    """Install the triggers as the code has them; count the tallies afresh if one was missing.
    Returns whether they were counted afresh (False too before the tally tables exist)."""
    if not set(TALLY_TABLES) <= set(connection.introspection.table_names()):
        return False
    ensure_fetched_index(connection)
    lacking = missing(connection)
    install(connection)
    if lacking:
        recount(connection)
    return bool(lacking)
