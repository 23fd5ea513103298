"""The SQL of the tally triggers (crawlweb.tallies.feeds), for PostgreSQL and SQLite, and of counting
a tally afresh from its source rows. Plain strings, no Django.

PostgreSQL: one statement-level trigger per source table and event, reading the statement's rows
from its transition tables (new_rows, old_rows), so a batch of 500 Targets adds one delta per key,
not 500. SQLite has no transition tables: one row-level trigger per source table and event, the row
given as a one-row subquery of NEW or OLD, so both read the same feed expressions. Every trigger
only inserts deltas (folded = FALSE): no trigger ever waits for a counter row another transaction holds.
"""
from __future__ import annotations

from crawlweb.tallies.feeds import CRAWLS, FEEDS, LAYER_LOCK, SOURCES, TALLIES, Feed, Source, feeds_of

EVENTS = ("INSERT", "UPDATE", "DELETE")
PG_TRANSITIONS = {"INSERT": (("new_rows", 1),), "DELETE": (("old_rows", -1),),
                  "UPDATE": (("old_rows", -1), ("new_rows", 1))}
PG_REFERENCING = {"INSERT": "NEW TABLE AS new_rows", "DELETE": "OLD TABLE AS old_rows",
                  "UPDATE": "OLD TABLE AS old_rows NEW TABLE AS new_rows"}
SQLITE_ROWS = {"INSERT": (("NEW", 1),), "DELETE": (("OLD", -1),), "UPDATE": (("OLD", -1), ("NEW", 1))}


def trigger_name(source: Source, event: str) -> str:
    return f"crawlweb_tally_{source.table}_{event.lower()}"


def lock_trigger_name(source: Source) -> str:
    return f"crawlweb_tally_{source.table}_lock"


def expected_triggers(vendor: str) -> list[tuple[str, str]]:
    """(trigger name, its table) of every tally trigger of the database (``vendor``: Django's name)."""
    pairs = [(trigger_name(source, event), source.table) for source in SOURCES for event in EVENTS
             if feeds_of(source, event)]
    if vendor == "postgresql":
        pairs += [(lock_trigger_name(source), source.table) for source in SOURCES if source.layer_lock == "exclusive"]
    return pairs + [(trigger_name(CRAWLS, "DELETE"), CRAWLS.table)]


def _joined(feed: Feed, postgresql: bool) -> str:
    """What follows a feed's source row in its FROM: the join, then the condition."""
    join = feed.pg_join if postgresql and feed.pg_join else feed.join
    return (f" {join}" if join else "") + (f" WHERE {feed.where}" if feed.where else "")


def _deltas(feed: Feed, rows: tuple[tuple[str, int], ...], postgresql: bool) -> str:
    """INSERT of the statement's (or row's) net change per key: rows are (relation, +1 or -1)."""
    columns = ", ".join(feed.columns)
    picked = ", ".join(f"{expression} AS {column}" for expression, column in zip(feed.expressions, feed.columns))
    parts = [f"SELECT {picked}, {sign} AS delta FROM {relation} AS r{_joined(feed, postgresql)}"
             for relation, sign in rows]
    return (f"INSERT INTO {feed.tally} ({columns}, n, folded) SELECT {columns}, SUM(delta), FALSE FROM ("
            + " UNION ALL ".join(parts) + f") AS changes GROUP BY {columns} HAVING SUM(delta) <> 0")


# PostgreSQL

def _pg_unchanged_check(source: Source) -> str:
    """An UPDATE that changed no watched column (a priority, a lease's expiry) ends here. Compared as
    sets (hashed), not joined row by row: a join of two transition tables of 5,000 rows ran as a
    nested loop, 1.8 s."""
    columns = ", ".join(("id", *source.watched))
    return (f"IF NOT EXISTS (SELECT {columns} FROM new_rows EXCEPT ALL SELECT {columns} FROM old_rows) "
            "THEN RETURN NULL; END IF;")


def _pg_shared_layer_lock(source: Source, event: str) -> str:
    """The changed rows' crawls' layer locks, shared (crawlweb.tallies.feeds.LAYER_LOCK), in crawl order."""
    crawls = " UNION ".join(source.crawls_of.format(rows=relation) for relation, _ in PG_TRANSITIONS[event])
    return (f"PERFORM pg_advisory_xact_lock_shared({LAYER_LOCK}, crawl_id::integer) "
            f"FROM (SELECT DISTINCT crawl_id FROM ({crawls}) AS changed ORDER BY crawl_id) AS crawls;")


def pg_install_layer_row_lock(source: Source) -> str:
    """Each row's crawl's layer lock, exclusive, before the row is changed (a BEFORE row trigger)."""
    name = lock_trigger_name(source)
    body = ["IF TG_OP <> 'INSERT' THEN",
            f"    PERFORM pg_advisory_xact_lock({LAYER_LOCK}, crawl_id::integer) FROM ({source.crawl_of_row.format(row='OLD')}) AS c;",
            "END IF;",
            "IF TG_OP <> 'DELETE' THEN",
            f"    PERFORM pg_advisory_xact_lock({LAYER_LOCK}, crawl_id::integer) FROM ({source.crawl_of_row.format(row='NEW')}) AS c;",
            "    RETURN NEW;",
            "END IF;",
            "RETURN OLD;"]
    statements = "\n    ".join(body)
    return (f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $tally$\nBEGIN\n"
            f"    {statements}\nEND\n$tally$;\n"
            f"CREATE OR REPLACE TRIGGER {name} BEFORE INSERT OR UPDATE OR DELETE ON {source.table} "
            f"FOR EACH ROW EXECUTE FUNCTION {name}();")


def pg_install(source: Source, event: str) -> str:
    body = [_pg_unchanged_check(source)] if event == "UPDATE" else []
    for feed in feeds_of(source, event):
        statement = _deltas(feed, PG_TRANSITIONS[event], postgresql=True) + ";"
        if feed.layer_locked:
            statement = f"{_pg_shared_layer_lock(source, event)}\n    {statement}"
        if feed.guard and event == "UPDATE":  # only rows whose guard moved can change this feed
            statement = (f"IF EXISTS (SELECT r.id, {feed.guard} FROM new_rows AS r EXCEPT ALL "
                         f"SELECT r.id, {feed.guard} FROM old_rows AS r) THEN\n    {statement}\n    END IF;")
        body.append(statement)
    name = trigger_name(source, event)  # the function's too: functions have a namespace of their own
    return _pg_function(name, body) + (
        f"CREATE OR REPLACE TRIGGER {trigger_name(source, event)} AFTER {event} ON {source.table} "
        f"REFERENCING {PG_REFERENCING[event]} FOR EACH STATEMENT EXECUTE FUNCTION {name}();")


def _pg_function(name: str, body: list[str]) -> str:
    statements = "\n    ".join(body)
    return (f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $tally$\nBEGIN\n"
            f"    {statements}\n    RETURN NULL;\nEND\n$tally$;\n")


def pg_install_crawl_cleanup() -> str:
    """A deleted crawl's tally rows go with it (they have no foreign key to cascade by)."""
    name = trigger_name(CRAWLS, "DELETE")
    body = [f"DELETE FROM {table} WHERE crawl_id IN (SELECT id FROM old_rows);" for table in TALLIES]
    return _pg_function(name, body) + (
        f"CREATE OR REPLACE TRIGGER {name} AFTER DELETE ON {CRAWLS.table} "
        f"REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION {name}();")


def pg_install_all() -> list[str]:
    return ([pg_install(source, event) for source in SOURCES for event in EVENTS if feeds_of(source, event)]
            + [pg_install_layer_row_lock(source) for source in SOURCES if source.layer_lock == "exclusive"]
            + [pg_install_crawl_cleanup()])


def pg_drop_all() -> list[str]:
    return [f"DROP TRIGGER IF EXISTS {name} ON {table}; DROP FUNCTION IF EXISTS {name}();"
            for name, table in expected_triggers("postgresql")]


# SQLite

def _sqlite_row(source: Source, which: str) -> str:
    columns = ", ".join(f"{which}.{column} AS {column}" for column in ("id", *source.watched))
    return f"(SELECT {columns})"


def sqlite_install(source: Source, event: str) -> str:
    rows = tuple((_sqlite_row(source, which), sign) for which, sign in SQLITE_ROWS[event])
    statements = "".join(f"\n    {_deltas(feed, rows, postgresql=False)};" for feed in feeds_of(source, event))
    timing = f"AFTER {event}"
    if event == "UPDATE":
        changed = " OR ".join(f"OLD.{column} IS NOT NEW.{column}" for column in source.watched)
        timing = f"AFTER UPDATE OF {', '.join(source.watched)}"
        return (f"CREATE TRIGGER {trigger_name(source, event)} {timing} ON {source.table} FOR EACH ROW "
                f"WHEN {changed} BEGIN{statements}\nEND")
    return f"CREATE TRIGGER {trigger_name(source, event)} {timing} ON {source.table} FOR EACH ROW BEGIN{statements}\nEND"


def sqlite_install_crawl_cleanup() -> str:
    statements = "".join(f"\n    DELETE FROM {table} WHERE crawl_id = OLD.id;" for table in TALLIES)
    return (f"CREATE TRIGGER {trigger_name(CRAWLS, 'DELETE')} AFTER DELETE ON {CRAWLS.table} FOR EACH ROW "
            f"BEGIN{statements}\nEND")


def sqlite_install_all() -> list[str]:
    return [sqlite_install(source, event) for source in SOURCES for event in EVENTS
            if feeds_of(source, event)] + [sqlite_install_crawl_cleanup()]


def sqlite_drop_all() -> list[str]:
    return [f"DROP TRIGGER IF EXISTS {name}" for name, _ in expected_triggers("sqlite")]


# Both

def recount_all() -> list[str]:
    """Every tally emptied and counted afresh from its source rows, as folded rows; then the member counts."""
    statements = [f"DELETE FROM {table}" for table in TALLIES]
    for feed in (feed for feed in FEEDS if feed.recount):
        columns = ", ".join(feed.columns)
        picked = ", ".join(f"{e} AS {c}" for e, c in zip(feed.expressions, feed.columns))
        statements.append(
            f"INSERT INTO {feed.tally} ({columns}, n, folded) SELECT {columns}, COUNT(*), TRUE FROM "
            f"(SELECT {picked} FROM {feed.source.table} AS r{_joined(feed, postgresql=False)}) AS source_rows "
            f"GROUP BY {columns}")
    statements.append("INSERT INTO crawlweb_membercount (crawl_id, figure, n) SELECT crawl_id, figure, COUNT(*) "
                      "FROM crawlweb_membertally WHERE folded = TRUE AND n > 0 GROUP BY crawl_id, figure")
    return statements
