"""The database triggers that keep frontier.HostQueue rows from falling behind their Targets.

Every writer of Targets (a crawl step's bulk INSERT, placement's priority updates, a lease handed
back, a retry, the admin, a test's ORM call, a bench's INSERT … SELECT) goes through them, so no
code path can leave a pending Target without its host's row, which would never be leased.

They only raise: a Target made pending (inserted, or updated from another state), given a higher
priority or another queue raises its row's ``best_priority``; one postponed (``due_at`` later than
now) moves ``wake_at`` earlier instead. Lowering needs the host's other Targets, so leasing does it
(crawlweb.services.host_queues.refresh) on rows it holds locked. A third trigger copies a host's
``last_served_at`` into its rows, for the round-robin order, and wakes its rows asleep past its
politeness clock if the clock is set back (leasing puts the rows of hosts waiting for their clocks
to sleep).

PostgreSQL: statement-level triggers over transition tables (one statement per statement, whatever
the number of rows written); SQLite: row-level triggers.
``ensure_triggers`` creates the ones missing: migration 0008 calls it, and so does every ``migrate``
(frontier.apps), because SQLite drops a table's triggers when a later migration rebuilds the table.
"""
from __future__ import annotations

NEVER = "1970-01-01 00:00:00"

# The upsert's target row: one per (crawl, host, queue) of the Targets raised.
_PG_UPSERT = """
    INSERT INTO frontier_hostqueue AS q (crawl_id, host_id, queue, best_priority, wake_at, served_at)
    SELECT t.crawl_id, t.host_id, t.queue,
           MAX(t.priority) FILTER (WHERE t.due_at IS NULL OR t.due_at <= now()),
           MIN(t.due_at) FILTER (WHERE t.due_at > now()),
           COALESCE(h.last_served_at, '{never}+00')
    FROM (SELECT n.crawl_id, n.host_id, n.priority, n.due_at,
                 CASE WHEN n.origin = 'backlink' THEN 'backlink' ELSE 'forward' END AS queue
          FROM {raised}) AS t
    JOIN crawlweb_host h ON h.id = t.host_id
    GROUP BY t.crawl_id, t.host_id, t.queue, h.last_served_at
    ORDER BY t.crawl_id, t.host_id, t.queue
    ON CONFLICT (crawl_id, host_id, queue) DO UPDATE
       SET best_priority = GREATEST(q.best_priority, EXCLUDED.best_priority),
           wake_at = LEAST(q.wake_at, EXCLUDED.wake_at)
       WHERE GREATEST(q.best_priority, EXCLUDED.best_priority) IS DISTINCT FROM q.best_priority
          OR LEAST(q.wake_at, EXCLUDED.wake_at) IS DISTINCT FROM q.wake_at;
"""
# Ordered by key, as above: two writers lock the rows they share in the same order.

_PG_RAISED_BY_INSERT = "added n WHERE n.state = 'pending'"
_PG_RAISED_BY_UPDATE = """after_update n JOIN before_update o ON o.id = n.id
          WHERE n.state = 'pending'
            AND (o.state <> 'pending' OR n.priority > o.priority OR n.origin <> o.origin
                 OR n.host_id <> o.host_id OR n.due_at IS DISTINCT FROM o.due_at)"""

PG_TRIGGERS = {
    "frontier_hostqueue_added": f"""
CREATE OR REPLACE FUNCTION frontier_hostqueue_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
{_PG_UPSERT.format(raised=_PG_RAISED_BY_INSERT, never=NEVER)}
    RETURN NULL;
END $$;
CREATE TRIGGER frontier_hostqueue_added AFTER INSERT ON frontier_target
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION frontier_hostqueue_added();
""",
    "frontier_hostqueue_raised": f"""
CREATE OR REPLACE FUNCTION frontier_hostqueue_raised() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
{_PG_UPSERT.format(raised=_PG_RAISED_BY_UPDATE, never=NEVER)}
    RETURN NULL;
END $$;
CREATE TRIGGER frontier_hostqueue_raised AFTER UPDATE ON frontier_target
    REFERENCING OLD TABLE AS before_update NEW TABLE AS after_update
    FOR EACH STATEMENT EXECUTE FUNCTION frontier_hostqueue_raised();
""",
    "frontier_hostqueue_host": f"""
CREATE OR REPLACE FUNCTION frontier_hostqueue_host() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- A host served: its rows' round-robin time. Rows a lease refreshed already have it
    -- (host_queues.refresh): not written twice. Rows another transaction holds (a placement
    -- raising them) keep their old time: waiting for them here, while that transaction waits for
    -- a row this lease holds, would be a deadlock.
    UPDATE frontier_hostqueue q SET served_at = s.served_at
    FROM (SELECT r.id, COALESCE(n.last_served_at, '{NEVER}+00') AS served_at
          FROM hosts_after n JOIN hosts_before o ON o.id = n.id JOIN frontier_hostqueue r ON r.host_id = n.id
          WHERE n.last_served_at IS DISTINCT FROM o.last_served_at
            AND r.served_at IS DISTINCT FROM COALESCE(n.last_served_at, '{NEVER}+00')
          FOR UPDATE OF r SKIP LOCKED) AS s
    WHERE q.id = s.id;
    -- A politeness clock set back (by hand, a repair): rows asleep past it wake with it. A crawl
    -- only moves clocks later, so this finds no row there.
    UPDATE frontier_hostqueue q SET asleep_until = CASE WHEN n.next_fetch_at > now() THEN n.next_fetch_at END
    FROM hosts_after n JOIN hosts_before o ON o.id = n.id
    WHERE q.host_id = n.id AND q.asleep_until IS NOT NULL
      AND n.next_fetch_at IS DISTINCT FROM o.next_fetch_at
      AND (n.next_fetch_at IS NULL OR q.asleep_until > n.next_fetch_at);
    RETURN NULL;
END $$;
CREATE TRIGGER frontier_hostqueue_host AFTER UPDATE ON crawlweb_host
    REFERENCING OLD TABLE AS hosts_before NEW TABLE AS hosts_after
    FOR EACH STATEMENT EXECUTE FUNCTION frontier_hostqueue_host();
""",
}

# SQLite keeps datetimes as UTC text (Django's format), which compares as time does.
_SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f', 'now')"
_SQLITE_UPSERT = f"""
    INSERT INTO frontier_hostqueue (crawl_id, host_id, queue, best_priority, wake_at, served_at)
    SELECT NEW.crawl_id, NEW.host_id, CASE WHEN NEW.origin = 'backlink' THEN 'backlink' ELSE 'forward' END,
           CASE WHEN NEW.due_at IS NULL OR NEW.due_at <= {_SQLITE_NOW} THEN NEW.priority END,
           CASE WHEN NEW.due_at > {_SQLITE_NOW} THEN NEW.due_at END,
           COALESCE((SELECT last_served_at FROM crawlweb_host WHERE id = NEW.host_id), '{NEVER}')
    WHERE true
    ON CONFLICT (crawl_id, host_id, queue) DO UPDATE
       SET best_priority = CASE WHEN best_priority IS NULL OR excluded.best_priority > best_priority
                                THEN COALESCE(excluded.best_priority, best_priority) ELSE best_priority END,
           wake_at = CASE WHEN wake_at IS NULL OR excluded.wake_at < wake_at
                          THEN COALESCE(excluded.wake_at, wake_at) ELSE wake_at END
       WHERE excluded.best_priority > best_priority OR (best_priority IS NULL AND excluded.best_priority IS NOT NULL)
          OR excluded.wake_at < wake_at OR (wake_at IS NULL AND excluded.wake_at IS NOT NULL);
"""

SQLITE_TRIGGERS = {
    "frontier_hostqueue_added": f"""
CREATE TRIGGER frontier_hostqueue_added AFTER INSERT ON frontier_target WHEN NEW.state = 'pending'
BEGIN {_SQLITE_UPSERT} END;
""",
    "frontier_hostqueue_raised": f"""
CREATE TRIGGER frontier_hostqueue_raised AFTER UPDATE OF state, priority, origin, host_id, due_at ON frontier_target
WHEN NEW.state = 'pending'
     AND (OLD.state <> 'pending' OR NEW.priority > OLD.priority OR NEW.origin <> OLD.origin
          OR NEW.host_id <> OLD.host_id OR NEW.due_at IS NOT OLD.due_at)
BEGIN {_SQLITE_UPSERT} END;
""",
    "frontier_hostqueue_host": f"""
CREATE TRIGGER frontier_hostqueue_host AFTER UPDATE OF last_served_at, next_fetch_at ON crawlweb_host
WHEN NEW.last_served_at IS NOT OLD.last_served_at OR NEW.next_fetch_at IS NOT OLD.next_fetch_at
BEGIN
    UPDATE frontier_hostqueue SET served_at = COALESCE(NEW.last_served_at, '{NEVER}')
    WHERE host_id = NEW.id AND served_at IS NOT COALESCE(NEW.last_served_at, '{NEVER}');
    UPDATE frontier_hostqueue SET asleep_until = CASE WHEN NEW.next_fetch_at > {_SQLITE_NOW} THEN NEW.next_fetch_at END
    WHERE host_id = NEW.id AND asleep_until IS NOT NULL
      AND (NEW.next_fetch_at IS NULL OR asleep_until > NEW.next_fetch_at);
END;
""",
}


def triggers_for(vendor: str) -> dict[str, str]:
    if vendor == "postgresql":
        return PG_TRIGGERS
    if vendor == "sqlite":
        return SQLITE_TRIGGERS
    raise NotImplementedError(f"HostQueue triggers exist for PostgreSQL and SQLite, not {vendor}")


def existing_triggers(connection) -> set[str]:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT tgname FROM pg_trigger WHERE tgname LIKE %s", ["frontier_hostqueue_%"])
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE %s",
                           ["frontier_hostqueue_%"])
        return {name for (name,) in cursor.fetchall()}


def ensure_triggers(connection) -> list[str]:
    """Create the triggers this database lacks; returns their names."""
    wanted = triggers_for(connection.vendor)
    missing = sorted(set(wanted) - existing_triggers(connection))
    with connection.cursor() as cursor:
        for name in missing:
            cursor.execute(wanted[name])
    return missing


def drop_triggers(connection) -> None:
    with connection.cursor() as cursor:
        for name in triggers_for(connection.vendor):
            if connection.vendor == "postgresql":
                table = "crawlweb_host" if name.endswith("host") else "frontier_target"
                cursor.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}; DROP FUNCTION IF EXISTS {name}();")
            else:
                cursor.execute(f"DROP TRIGGER IF EXISTS {name}")
