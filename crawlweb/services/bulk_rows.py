"""The rows a crawl step writes by the thousand (Pages, Links, new Targets), by the cheapest means each
database has, and the per-row values of its bulk UPDATEs.

PostgreSQL: Links by COPY; Pages and Targets in one INSERT … ON CONFLICT DO NOTHING RETURNING each,
whose rows travel as one JSON parameter. Model instances and bulk_create cost the worker more than the
database's own work: Django prepares every value of every row, and psycopg (binding on the client)
turns each list of values into an array literal in Python, value by value. COPY and one JSON string
skip both.
SQLite (the embedded mode, one writer at a time): bulk_create, which is cheap enough there.
"""
from __future__ import annotations

import json
from datetime import datetime
from functools import cache
from typing import Mapping, NamedTuple

from django.db import connection, transaction
from django.db.models import Field, JSONField
from django.db.models.expressions import RawSQL
from django.utils import timezone

from crawlweb.models import Crawl, Link, Page, Target
from crawlweb.services.host_queues import lock_rows_of_targets
from crawlweb.services.hosts import cached_host_ids, forget_host_ids, hosts_for


class LinkRow(NamedTuple):
    """One crawlweb.Link row; the fields are its columns, in COPY order."""

    page_id: int
    target_url: str
    url_as_linked: str
    kind: str
    anchor_text: str
    text_around: str
    img_alt: str
    img_src: str
    rel: str
    hreflang: str
    out_of_site: bool


class TargetRow(NamedTuple):
    """A new Target's own values; its host is looked up by name when it is written."""

    url: str
    url_as_linked: str
    origin: str
    source_page_id: int | None
    anchor_text: str
    text_around: str
    img_alt: str
    img_src: str
    depth: int
    priority: float
    host_name: str
    state: str = "pending"  # or "held" (Target.State.HELD): kept out of the queues until released


class StaleHostError(RuntimeError):
    """Host rows went away twice while their Targets were being written (deleted meanwhile)."""


def insert_skips_stored_pages() -> bool:
    """Whether insert_pages may be given content the crawl stored before (it then leaves those out
    and says which); on SQLite the caller looks the MD5s up first."""
    return connection.vendor == "postgresql"


def insert_pages(pages: list[Page]) -> set[str]:
    """Insert new Pages (their pk is set); returns the MD5s of those left out because another worker
    stored the same content first (the unique (crawl, md5) constraint decides)."""
    if not pages:
        return set()
    if connection.vendor == "postgresql":
        return _insert_pages_postgresql(pages)
    # Writers take turns on SQLite (the caller's transaction began IMMEDIATE): nobody can store the
    # same content between the caller's look-up and this insert.
    Page.objects.bulk_create(pages)
    return set()


def _without_nul(value):
    """PostgreSQL's text holds no NUL character: a header a site sent with one (charset=utf\0-8) failed
    the INSERT of the whole batch, and the crawl with it. Dropped from strings, in dicts and lists too."""
    if isinstance(value, str):
        return value.replace("\x00", "") if "\x00" in value else value
    if isinstance(value, dict):
        return {_without_nul(k): _without_nul(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_nul(v) for v in value]
    return value


def _insert_pages_postgresql(pages: list[Page]) -> set[str]:
    fields = _page_fields()
    pages = sorted(pages, key=lambda page: page.md5)  # one lock order for every worker, as for Targets
    payload = json.dumps([[_without_nul(getattr(page, field.attname)) for field in fields] for page in pages],
                         default=_json_datetime, ensure_ascii=False)
    with connection.cursor() as cursor:
        cursor.execute(_insert_pages_sql(), [payload])
        ids = dict(cursor.fetchall())
    for page in pages:
        page.pk = ids.get(page.md5)
        page._state.adding, page._state.db = page.pk is None, connection.alias
    return {page.md5 for page in pages if page.pk is None}


@cache
def _page_fields() -> list[Field]:
    return [field for field in Page._meta.concrete_fields if not field.primary_key]


@cache
def _insert_pages_sql() -> str:
    """Every Page column from a JSON array per row, in _page_fields order (from the model, so a new
    column is never forgotten). Casts to the bare type: varchar(1000) would cut a long value silently."""
    fields = _page_fields()
    values = ", ".join(f"r->{i}" if isinstance(field, JSONField)
                       else f"(r->>{i})::{field.db_type(connection).partition('(')[0]}"
                       for i, field in enumerate(fields))
    return (f"INSERT INTO crawlweb_page ({', '.join(field.column for field in fields)}) "
            f"SELECT {values} FROM jsonb_array_elements(%s::jsonb) WITH ORDINALITY AS e(r, n) ORDER BY n "
            "ON CONFLICT (crawl_id, md5) DO NOTHING RETURNING md5, id")


def _json_datetime(value: datetime) -> str:
    return value.isoformat()


def insert_links(rows: list[LinkRow]) -> None:
    if not rows:
        return
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor, connection.wrap_database_errors:
            with cursor.copy(f"COPY crawlweb_link ({', '.join(LinkRow._fields)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
    else:
        Link.objects.bulk_create([Link(**row._asdict()) for row in rows], batch_size=500)


def insert_targets(crawl: Crawl, rows: list[TargetRow]) -> list[int]:
    """Insert the rows (one per URL) the crawl does not have yet; returns the ids of those inserted, ascending.

    A URL the crawl already has is left alone. Between racing workers the unique constraint on
    (crawl, url) decides: a URL another worker inserted first is its, and its id is not returned."""
    if connection.vendor == "postgresql":
        return _insert_targets_postgresql(crawl.pk, rows)
    return _insert_targets_orm(crawl, rows)


# Key of the transaction-level advisory lock under which a crawl's batches are stored.
STORE_LOCK = 7_301


def lock_crawl_store(crawl_id: int) -> None:
    """Store one batch of the crawl at a time, until the caller's transaction ends (PostgreSQL).

    A batch's transaction updates its own Targets, then inserts the new ones; another worker's
    insert of a URL among those updated rows waits for that transaction, which could in turn be
    waiting for the other's new rows: a deadlock that cost both batches (two workers fell to 40-85
    pages/s). Fetching stays parallel; only these writes take turns. SQLite takes turns anyway."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [STORE_LOCK, crawl_id])


def write_target_priorities(crawl_id: int, targets: list[Target], batch_size: int = 500) -> None:
    """Write these Targets' ``priority`` in the caller's transaction, with the locks every priority
    writer must take first: the crawl's store lock (a step's store updates Targets in PostgreSQL's scan
    order, not ours: taking turns prevents that deadlock), then the Targets' hosts' queue rows, the
    order a lease batch takes them in (host_queues.lock_rows_of_targets: the UPDATE raises those rows
    by trigger after locking the Targets, the lease the other way round)."""
    lock_crawl_store(crawl_id)
    lock_rows_of_targets(crawl_id, (target.pk for target in targets))
    if connection.vendor != "postgresql":
        Target.objects.bulk_update(targets, ["priority"], batch_size=batch_size)
        return
    # Two array parameters and a join: bulk_update's CASE of one WHEN per row cost the placement job
    # more in Django's resolving it (about a third of the job) than in PostgreSQL's running it.
    by_id = sorted((target.pk, target.priority) for target in targets)
    for start in range(0, len(by_id), batch_size):
        chunk = by_id[start:start + batch_size]
        with connection.cursor() as cursor:
            cursor.execute("UPDATE frontier_target AS t SET priority = v.priority"
                           " FROM unnest(%s::bigint[], %s::double precision[]) AS v(id, priority)"
                           " WHERE t.id = v.id AND t.crawl_id = %s",
                           [[pk for pk, _ in chunk], [priority for _, priority in chunk], crawl_id])


def _insert_targets_postgresql(crawl_id: int, rows: list[TargetRow]) -> list[int]:
    for _attempt in range(2):
        inserted, stale_hosts = _insert_checking_hosts(crawl_id, rows,
                                                       cached_host_ids({row.host_name for row in rows}))
        if not stale_hosts:
            return sorted(inserted)
        forget_host_ids()  # a remembered host row is gone (deleted, or never committed): look all up afresh
    raise StaleHostError(f"host rows deleted while their Targets were written: {', '.join(sorted(stale_hosts))}")


# Rows arrive as a JSON array of arrays (see _insert_checking_hosts). When the cached id of a row's
# host no longer names that host, nothing is inserted and the stale hosts' names come back instead.
_INSERT_TARGETS = """
WITH candidate AS (
    SELECT n, r->>0 AS url, r->>1 AS url_as_linked, r->>2 AS origin, (r->>3)::bigint AS source_page_id,
           r->>4 AS anchor_text, r->>5 AS text_around, r->>6 AS img_alt, r->>7 AS img_src,
           (r->>8)::integer AS depth, (r->>9)::double precision AS priority,
           r->>10 AS host_name, (r->>11)::bigint AS host_id, r->>12 AS state
    FROM jsonb_array_elements(%(rows)s::jsonb) WITH ORDINALITY AS e(r, n)
), checked AS (
    SELECT candidate.*, host.site_id, host.id IS NOT NULL AS host_exists
    FROM candidate LEFT JOIN crawlweb_host host ON host.id = candidate.host_id AND host.name = candidate.host_name
), inserted AS (
    INSERT INTO frontier_target (crawl_id, url, url_as_linked, host_id, site_id, origin, source_page_id,
                                 anchor_text, text_around, img_alt, img_src, depth, priority,
                                 state, lease_owner, attempts, error_kind, last_error, created_at)
    SELECT %(crawl_id)s, url, url_as_linked, host_id, site_id, origin, source_page_id,
           anchor_text, text_around, img_alt, img_src, depth, priority,
           state, '', 0, '', '', %(now)s
    FROM checked WHERE NOT EXISTS (SELECT 1 FROM checked WHERE NOT host_exists)
    ORDER BY n
    ON CONFLICT (crawl_id, url) DO NOTHING
    RETURNING id
)
SELECT id, NULL FROM inserted
UNION ALL
SELECT NULL, host_name FROM checked WHERE NOT host_exists
"""


def _insert_checking_hosts(crawl_id: int, rows: list[TargetRow],
                           host_ids: dict[str, int]) -> tuple[list[int], set[str]]:
    """(ids of the rows inserted, names of hosts whose cached id is stale): one statement, all rows or none.

    ORDER BY n inserts (and numbers) the rows in the order given, which the caller chose."""
    # The priority goes as text: JSON has no infinity, PostgreSQL's float8 reads "inf" and "-3.0" alike.
    payload = json.dumps([(row.url, row.url_as_linked, row.origin, row.source_page_id, row.anchor_text,
                           row.text_around, row.img_alt, row.img_src, row.depth, repr(row.priority),
                           row.host_name, host_ids[row.host_name], row.state) for row in rows], ensure_ascii=False)
    with connection.cursor() as cursor:
        cursor.execute(_INSERT_TARGETS, {"rows": payload, "crawl_id": crawl_id, "now": timezone.now()})
        answers = cursor.fetchall()
    return [new_id for new_id, _ in answers if new_id is not None], {host for new_id, host in answers if new_id is None}


def _insert_targets_orm(crawl: Crawl, rows: list[TargetRow]) -> list[int]:
    """Three statements: the URLs known, bulk_create of the others, their ids read back.

    In one transaction, which SQLite begins IMMEDIATE, taking the write lock first: no other writer
    adds one of these URLs between the look-up and the read-back."""
    with transaction.atomic(savepoint=False):
        hosts = hosts_for({row.host_name for row in rows})
        known = set(Target.objects.filter(crawl=crawl, url__in=[row.url for row in rows])
                    .values_list("url", flat=True))
        fresh = []
        for row in rows:
            if row.url not in known:
                values = row._asdict()
                host = hosts[values.pop("host_name")]
                fresh.append(Target(crawl=crawl, host=host, site_id=host.site_id, **values))
        Target.objects.bulk_create(fresh, ignore_conflicts=True, batch_size=500)
        # ignore_conflicts leaves primary keys unset: read the new rows back.
        return list(Target.objects.filter(crawl=crawl, url__in=[target.url for target in fresh])
                    .values_list("id", flat=True))


def case_by_id(values: Mapping[int, object], field: Field, *, otherwise_column: str | None = None) -> RawSQL:
    """A bulk UPDATE's value per row, CASE id WHEN … THEN … END, from {row id: value}; placeholders only.
    ``otherwise_column``: rows not in ``values`` keep that column's value (ELSE column).

    Django's Case(When(pk=…)) (and bulk_update, which writes one per column) resolves a Q object per
    row, which cost the worker more than the UPDATE itself."""
    params: list = []
    for pk, value in values.items():
        params += (pk, field.get_db_prep_save(value, connection))  # e.g. a datetime becomes text on SQLite
    otherwise = f" ELSE {connection.ops.quote_name(otherwise_column)}" if otherwise_column else ""
    return RawSQL("CASE id" + " WHEN %s THEN %s" * len(values) + otherwise + " END", params, output_field=field)


def update_columns(model, columns: Mapping[str, Mapping[int, object]], batch_size: int = 500) -> None:
    """Write {field name: {row id: value}}: only the rows given, each row once with all its changed columns.

    Scoring changes two or three of a candidate pair's eighteen columns; bulk_update would write every
    column of every row, each as a Case(When(pk=…)) Django resolves row by row. Each UPDATE of a row
    also leaves a dead copy of it for vacuum: one UPDATE per column made a row of three changed columns
    three dead copies, so a chunk of rows gets one UPDATE whose columns keep (ELSE) what a row does not change."""
    ids = sorted({pk for by_id in columns.values() for pk in by_id})
    for start in range(0, len(ids), batch_size):
        chunk = ids[start:start + batch_size]
        values = {}
        for name, by_id in columns.items():
            part = {pk: by_id[pk] for pk in chunk if pk in by_id}
            if not part:
                continue
            field = model._meta.get_field(name)
            value = case_by_id(part, field, otherwise_column=field.column if len(part) < len(chunk) else None)
            if connection.vendor == "postgresql":  # a CASE of NULLs only is text, which a float column refuses
                value = RawSQL(f"CAST({value.sql} AS {field.db_type(connection)})", value.params, output_field=field)
            values[name] = value
        model.objects.filter(pk__in=chunk).update(**values)


def write_site_rows(model, crawl_id: int, wanted: Mapping[int, dict], stamp: str, *,
                    ignore_conflicts: bool = False) -> None:
    """Bring ``model``'s one row per (crawl, site) to ``wanted`` ({site id: values}): missing rows are
    created, stored ones get the columns that changed, and ``stamp`` (a date field) set to now when any
    did; one read, at most one INSERT and one UPDATE a chunk, whatever the number of sites. A re-run
    writes nothing."""
    if not wanted:
        return
    fields = sorted({name for values in wanted.values() for name in values})
    stored = {row["site_id"]: row for row in model.objects.filter(crawl_id=crawl_id, site_id__in=list(wanted))
              .values("id", "site_id", *fields)}
    model.objects.bulk_create([model(crawl_id=crawl_id, site_id=site_id, **values)
                               for site_id, values in wanted.items() if site_id not in stored],
                              ignore_conflicts=ignore_conflicts)
    columns: dict[str, dict[int, object]] = {}
    now = timezone.now()
    for site_id, values in wanted.items():
        row = stored.get(site_id)
        changed = {name: value for name, value in values.items() if row is not None and row[name] != value}
        for name, value in changed.items():
            columns.setdefault(name, {})[row["id"]] = value
        if changed:
            columns.setdefault(stamp, {})[row["id"]] = now
    if columns:
        update_columns(model, columns)
