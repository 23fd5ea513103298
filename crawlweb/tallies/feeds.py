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
    # PostgreSQL, before the deltas of a statement are written: the rows of another table the feeds
    # read (named by this column of the changed rows), locked FOR SHARE in id order, so that a
    # concurrent change of them waits for this statement's transaction, or this statement for theirs
    locks: tuple[str, str] | None = None  # (table, column)


@dataclass(frozen=True)
class Feed:
    tally: str
    columns: tuple[str, ...]
    source: Source
    expressions: tuple[str, ...]
    join: str = ""
    where: str = ""
    # events whose rows this feed counts (a Target row is new or gone with no placement yet or left)
    events: tuple[str, ...] = ("INSERT", "UPDATE", "DELETE")
    # whether the tally's count afresh reads this feed (False: another feed of the tally counts those rows)
    recount: bool = True


TARGETS = Source("frontier_target", ("crawl_id", "state", "origin", "error_kind", "host_id"))
PAGES = Source("crawlweb_page", ("crawl_id", "language", "script", "site_id"))
PLACEMENTS = Source(
    "frontier_layerplacement", ("target_id", "module", "layer", "layer_id"),
    # A placement is counted under its Target's state; the Target's state change recounts the
    # placements it sees. Without the lock, a placement written while its Target was being leased
    # would be seen by neither and stay counted as pending.
    locks=("frontier_target", "target_id"))
CRAWLS = Source("crawlweb_crawl", ())

FEEDS = (
    Feed("crawlweb_targettally", ("crawl_id", "state", "origin", "error_kind"), TARGETS,
         ("r.crawl_id", "r.state", "r.origin", "r.error_kind")),
    Feed("crawlweb_membertally", ("crawl_id", "figure", "member_id"), TARGETS,
         ("r.crawl_id", f"'{HOST_WORK}'", "r.host_id"),
         where="r.state IN (" + ", ".join(f"'{state}'" for state in WORK_STATES) + ")"),
    Feed("crawlweb_layertally", ("crawl_id", "module", "layer", "layer_id", "pending"), TARGETS,
         ("r.crawl_id", "p.module", "p.layer", "p.layer_id", "(r.state = 'pending')"),
         join="JOIN frontier_layerplacement p ON p.target_id = r.id", events=("UPDATE",), recount=False),
    Feed("crawlweb_layertally", ("crawl_id", "module", "layer", "layer_id", "pending"), PLACEMENTS,
         ("t.crawl_id", "r.module", "r.layer", "r.layer_id", "(t.state = 'pending')"),
         join="JOIN frontier_target t ON t.id = r.target_id"),
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
