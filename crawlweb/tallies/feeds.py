"""What feeds each tally: for every source table, the tally keys read off one of its rows.

Plain data (no Django): crawlweb.tallies.trigger_sql turns it into triggers for PostgreSQL and SQLite
and into the queries that count a tally afresh from its source rows.

A feed's expressions read the source row as ``r`` (and a joined row, named by its ``join``); each
becomes the tally column of the same position in ``columns``. A source row counts once under its key
when it appears (INSERT, or an UPDATE's new row) and minus once when it goes (DELETE, or an
UPDATE's old row), so an UPDATE that keeps a row's key adds nothing.
"""
from __future__ import annotations

from dataclasses import dataclass

WORK_STATES = ("pending", "leased")  # a host with a Target in these has work left (the live panel's hosts)
HOST_WORK, SITE_PAGES = "host-work", "site-pages"  # the member figures of crawlweb_membertally


@dataclass(frozen=True)
class Source:
    """A table whose rows are counted: its changes the triggers watch."""

    table: str
    watched: tuple[str, ...]  # the columns the feeds read: an UPDATE that changes none of them is skipped
    # PostgreSQL, the crawls' layer lock (LAYER_LOCK): "shared", taken by a statement before a layer feed
    # reads the placements (crawls_of: the changed rows' crawls, from the relation {rows}); "exclusive",
    # taken for each row before the statement changes it (crawl_of_row: its crawl, from the row {row}),
    # so the statement holds no row of its own while it waits
    layer_lock: str = ""
    crawls_of: str = ""
    crawl_of_row: str = ""


@dataclass(frozen=True)
class Feed:
    tally: str
    columns: tuple[str, ...]
    source: Source
    expressions: tuple[str, ...]
    join: str = ""
    pg_join: str = ""  # PostgreSQL's form of the join, where it differs
    where: str = ""
    # events whose rows this feed counts (a Target row is new or gone with no placement yet or left)
    events: tuple[str, ...] = ("INSERT", "UPDATE", "DELETE")
    # whether the tally's count afresh reads this feed (False: another feed of the tally counts those rows)
    recount: bool = True
    # PostgreSQL: the feed reads the placements under the crawls' shared layer lock
    layer_locked: bool = False
    # an expression over a source row: an UPDATE that moves it for no row adds nothing to this feed
    # (and takes no lock for it)
    guard: str = ""


# A placement is counted under its Target's state, and a Target's change of state recounts the
# placements it sees. Written at once by two transactions, each would read the other's row as it was
# before, and the placement would stay counted under the old state. So a crawl has a layer lock (an
# advisory lock per crawl, held to the transaction's end): a Target's change of state takes it shared
# (changes of state never wait for each other), a placement's change takes it exclusive, and so reads
# the states once every transaction that changed one has committed, while a change of state made
# meanwhile waits for the placement to commit and then sees it. Row locks on the Targets instead
# (FOR SHARE) deadlocked with leases and stores, which lock Targets in other orders; a placement
# takes the lock before it changes its first row (a BEFORE trigger), so two placement writers never
# wait for each other's rows while one holds the lock.
LAYER_LOCK = 7_303  # advisory lock key, beside crawlweb.services.bulk_rows.STORE_LOCK and the fold's
TARGETS = Source("frontier_target", ("crawl_id", "state", "origin", "error_kind", "host_id"),
                 layer_lock="shared", crawls_of="SELECT crawl_id FROM {rows}")
PAGES = Source("crawlweb_page", ("crawl_id", "language", "script", "site_id"))
PLACEMENTS = Source("frontier_layerplacement", ("target_id", "module", "layer", "layer_id"),
                    layer_lock="exclusive", crawl_of_row="SELECT crawl_id FROM frontier_target WHERE id = {row}.target_id")
CRAWLS = Source("crawlweb_crawl", ())

FEEDS = (
    Feed("crawlweb_targettally", ("crawl_id", "state", "origin", "error_kind"), TARGETS,
         ("r.crawl_id", "r.state", "r.origin", "r.error_kind")),
    Feed("crawlweb_membertally", ("crawl_id", "figure", "member_id"), TARGETS,
         ("r.crawl_id", f"'{HOST_WORK}'", "r.host_id"),
         where="r.state IN (" + ", ".join(f"'{state}'" for state in WORK_STATES) + ")"),
    Feed("crawlweb_layertally", ("crawl_id", "module", "layer", "layer_id", "pending"), TARGETS,
         ("r.crawl_id", "p.module", "p.layer", "p.layer_id", "(r.state = 'pending')"),
         join="JOIN frontier_layerplacement p ON p.target_id = r.id",
         # each changed Target's placements looked up in the index: planned as a join, a lease of 32
         # Targets hashed them against a scan of every placement (the estimate of placements per
         # Target was off); OFFSET 0 keeps the subquery from being turned into that join
         pg_join="CROSS JOIN LATERAL (SELECT module, layer, layer_id FROM frontier_layerplacement "
                 "WHERE target_id = r.id OFFSET 0) AS p",
         events=("UPDATE",), recount=False,
         layer_locked=True, guard="(r.state = 'pending')"),
    Feed("crawlweb_layertally", ("crawl_id", "module", "layer", "layer_id", "pending"), PLACEMENTS,
         ("t.crawl_id", "r.module", "r.layer", "r.layer_id", "(t.state = 'pending')"),
         join="JOIN frontier_target t ON t.id = r.target_id",
         pg_join="CROSS JOIN LATERAL (SELECT crawl_id, state FROM frontier_target WHERE id = r.target_id OFFSET 0) AS t"),
    Feed("crawlweb_pagetally", ("crawl_id", "language", "script"), PAGES,
         ("r.crawl_id", "r.language", "r.script")),
    Feed("crawlweb_membertally", ("crawl_id", "figure", "member_id"), PAGES,
         ("r.crawl_id", f"'{SITE_PAGES}'", "r.site_id")),
)
TALLIES = ("crawlweb_targettally", "crawlweb_pagetally", "crawlweb_layertally", "crawlweb_membertally",
           "crawlweb_membercount")
SOURCES = (TARGETS, PLACEMENTS, PAGES)


def feeds_of(source: Source, event: str) -> list[Feed]:
    return [feed for feed in FEEDS if feed.source == source and event in feed.events]
