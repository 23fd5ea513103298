"""Folding a crawl's tally deltas into their folded rows (the arithmetic: crawlweb.tallies.folding).

Run by every crawl step as it ends (crawlweb.jobs.crawl_step), and by a dashboard read that met more
than READ_FOLD_AT deltas (a bulk change made outside the steps: a re-harvest, a database cleaning, a
crawl that is not running). Reads stay exact at all times: a fold moves counts from deltas to folded
rows in one transaction, and every read sums both in one statement.

One fold at a time per crawl: on PostgreSQL a transaction-level advisory lock, taken without waiting
(a step that finds another fold under way leaves its deltas to that fold or the next); on SQLite the
IMMEDIATE transaction. Deltas are taken with DELETE … RETURNING, so a fold moves exactly the rows it
removed, never one committed meanwhile by a worker.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import partial

from django.db import connection, models, transaction
from django.db.models import F

from crawlweb.models import LayerTally, MemberCount, MemberTally, PageTally, TargetTally
from crawlweb.services.bulk_rows import update_columns
from crawlweb.tallies.folding import FoldPlan, fold_plan, summed

FOLD_LOCK = 7_302  # advisory lock key, beside crawlweb.services.bulk_rows.STORE_LOCK
READ_FOLD_AT = 5_000  # deltas a dashboard read sums before it folds them (a few ms of reading)
CHUNK = 500  # ids per IN list
FOLD_BATCH = 50_000  # deltas taken at once: what a fold holds in memory


@dataclass(frozen=True)
class TallyTable:
    model: type[models.Model]
    keys: tuple[str, ...]  # the key fields besides crawl_id


TABLES = (TallyTable(TargetTally, ("state", "origin", "error_kind")), TallyTable(PageTally, ("language", "script")),
          TallyTable(LayerTally, ("module", "layer", "layer_id", "pending")))
MEMBERS = TallyTable(MemberTally, ("figure", "member_id"))


def fold_tallies(crawl_id: int) -> int:
    """Fold the crawl's deltas; returns how many were folded (0 when another fold of it is under way)."""
    with transaction.atomic():
        if not _fold_lock(crawl_id):
            return 0
        folded = 0
        for fold_batch in [*(partial(_fold_grouped, table) for table in TABLES), _fold_members]:
            moved = FOLD_BATCH
            while moved == FOLD_BATCH:  # a batch at a time: a re-harvest can leave millions
                moved = fold_batch(crawl_id)
                folded += moved
        return folded


def fold_if_many(deltas_by_crawl: dict[int, int]) -> None:
    """A read's follow-up: fold the crawls whose reads summed more than READ_FOLD_AT deltas."""
    for crawl_id, deltas in deltas_by_crawl.items():
        if deltas > READ_FOLD_AT:
            fold_tallies(crawl_id)


def _fold_lock(crawl_id: int) -> bool:
    if connection.vendor != "postgresql":
        return True  # the IMMEDIATE transaction holds the only write lock
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", [FOLD_LOCK, crawl_id])
        return cursor.fetchone()[0]


def _take_deltas(table: TallyTable, crawl_id: int) -> list[tuple]:
    """Delete up to FOLD_BATCH of the crawl's deltas; returns them as (key..., n)."""
    columns = ", ".join(table.model._meta.get_field(key).column for key in table.keys)
    name = table.model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {name} WHERE id IN (SELECT id FROM {name} WHERE crawl_id = %s AND folded = %s "
                       f"LIMIT %s) RETURNING {columns}, n", [crawl_id, False, FOLD_BATCH])
        return cursor.fetchall()


def _fold_grouped(table: TallyTable, crawl_id: int) -> int:
    """Fold a batch of the crawl's deltas of a grouped tally; returns how many."""
    deltas = _take_deltas(table, crawl_id)
    if deltas:
        folded = {tuple(row[1:-1]): (row[0], row[-1]) for row in table.model.objects.filter(
            crawl_id=crawl_id, folded=True).values_list("id", *table.keys, "n")}
        # SQLite returns a boolean key as 0/1, the ORM as False/True: equal, and equal as dict keys
        _write(table, crawl_id, fold_plan(summed((row[:-1], row[-1]) for row in deltas), folded))
    return len(deltas)


def _fold_members(crawl_id: int) -> int:
    """Fold a batch of the crawl's member deltas, and the members they move into MemberCount."""
    deltas = _take_deltas(MEMBERS, crawl_id)
    by_figure: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for figure, member_id, n in deltas:
        by_figure[figure].append((member_id, n))
    for figure, rows in by_figure.items():
        sums = summed(rows)
        folded = {}
        members = sorted(sums)
        for start in range(0, len(members), CHUNK):
            folded.update({member: (pk, n) for pk, member, n in MemberTally.objects.filter(
                crawl_id=crawl_id, figure=figure, folded=True, member_id__in=members[start:start + CHUNK])
                .values_list("id", "member_id", "n")})
        plan = fold_plan({(figure, member): n for member, n in sums.items()},
                         {(figure, member): row for member, row in folded.items()})
        _write(MEMBERS, crawl_id, plan)
        if plan.members and not MemberCount.objects.filter(crawl_id=crawl_id, figure=figure).update(
                n=F("n") + plan.members):
            MemberCount.objects.create(crawl_id=crawl_id, figure=figure, n=plan.members)
    return len(deltas)


def _write(table: TallyTable, crawl_id: int, plan: FoldPlan) -> None:
    model = table.model
    model.objects.bulk_create([model(crawl_id=crawl_id, folded=True, n=n, **dict(zip(table.keys, key)))
                               for key, n in plan.new.items()], batch_size=CHUNK)
    if plan.changed:
        update_columns(model, {"n": plan.changed}, batch_size=CHUNK)
    for start in range(0, len(plan.emptied), CHUNK):
        model.objects.filter(pk__in=plan.emptied[start:start + CHUNK]).delete()
