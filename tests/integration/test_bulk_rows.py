"""Rows written in bulk (COPY and one JSON INSERT on PostgreSQL, bulk_create on SQLite) read back as written."""
import threading
import time
from datetime import datetime, timezone as dt_timezone

import pytest
from django.db import connections, transaction
from django.utils import timezone

from crawlweb.models import Crawl, Host, Link, Page, Site
from crawlweb.services.bulk_rows import STORE_LOCK, LinkRow, insert_links, insert_pages, lock_crawl_store
from tests.integration.helpers import join_workers, start_workers

pytestmark = pytest.mark.django_db
# On SQLite writers take turns, so nobody can store the content meanwhile: a race needs PostgreSQL.
on_postgresql_only = pytest.mark.services

# What COPY's text format must escape, and what a page really holds.
AWKWARD = "100% and %s, tab\there, new\nline, back\\slash, \\N, quote ' and \", Ćirilica: Добро дошли, emoji 🙂"


def a_page(crawl: Crawl, md5: str, **fields) -> Page:
    site, _ = Site.objects.get_or_create(name="primer.rs")
    host, _ = Host.objects.get_or_create(name="www.primer.rs", site=site)
    values = dict(crawl=crawl, site=site, host=host, url=f"http://www.primer.rs/{md5}.html",
                  final_url=f"http://www.primer.rs/{md5}.html", status_code=200, md5=md5, fetched_at=timezone.now())
    return Page(**values | fields)


def test_links_read_back_equal_with_their_contexts_kinds_and_site():
    page = a_page(Crawl.objects.create(name="links"), "a" * 32)
    page.save()
    rows = [
        LinkRow(page.pk, "http://www.primer.rs/en/", "http://www.primer.rs/en/#top", "a", AWKWARD, "words " * 300,
                "", "", "", "", False),
        LinkRow(page.pk, "http://www.example.com/", "http://www.example.com/", "alternate", "", "", "", "",
                "alternate", "en-GB", True),
        LinkRow(page.pk, "http://www.primer.rs/img.html", "http://www.primer.rs/img.html", "area", "", "",
                "zastava", "http://www.primer.rs/flag.png", "nofollow", "", False),
        LinkRow(page.pk, "http://www.primer.rs/next", "http://www.primer.rs/next", "redirect", "", "", "", "", "", "",
                False),
    ]
    insert_links(rows)
    stored = Link.objects.filter(page=page).order_by("id").values_list(*LinkRow._fields)
    assert [LinkRow(*values) for values in stored] == rows


def test_pages_read_back_equal_and_get_their_ids():
    crawl = Crawl.objects.create(name="pages")
    modified = datetime(2026, 11, 1, 10, 0, tzinfo=dt_timezone.utc)
    pages = [a_page(crawl, "b" * 32, title=AWKWARD, text=AWKWARD * 50, headers={"etag": '"v1"', "server": "Ćao"},
                    headings=["Naslov", "Podnaslov"], truncated=True, modified_at=modified, size=12345,
                    tag_signature="html body p #12 /p /body /html", language="sr", script="Cyrl"),
             a_page(crawl, "c" * 32, content_type="application/pdf", headers={}, headings=[])]
    assert insert_pages(pages) == set()
    for page in pages:
        stored = Page.objects.get(pk=page.pk)
        assert {field.attname: getattr(stored, field.attname) for field in Page._meta.concrete_fields} == {
            field.attname: getattr(page, field.attname) for field in Page._meta.concrete_fields}
    assert pages[0].pk < pages[1].pk


@on_postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_page_another_worker_stored_first_is_left_out_for_its_row():
    crawl = Crawl.objects.create(name="page race")
    a_page(crawl, "0" * 32)  # creates the Site and Host rows, committed before the race
    results, first_inserted = {}, threading.Event()

    def first():
        try:
            with transaction.atomic():
                insert_pages([a_page(crawl, "d" * 32)])
                first_inserted.set()
                time.sleep(0.3)
        finally:
            first_inserted.set()

    def second():
        first_inserted.wait(10)
        with transaction.atomic():
            pages = [a_page(crawl, "d" * 32), a_page(crawl, "e" * 32)]
            results["lost"], results["pages"] = insert_pages(pages), pages

    join_workers(start_workers(first, second))

    assert results["lost"] == {"d" * 32}
    same, other = results["pages"]
    assert same.pk is None and other.pk == Page.objects.get(crawl=crawl, md5="e" * 32).pk
    assert Page.objects.filter(crawl=crawl).count() == 2


@on_postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_crawls_batches_are_stored_one_at_a_time_and_other_crawls_do_not_wait():
    """lock_crawl_store: two workers' transactions on one crawl's batch writes take turns (they
    deadlocked otherwise); a batch of another crawl goes ahead."""
    crawl, other = Crawl.objects.create(name="store lock"), Crawl.objects.create(name="other crawl")
    holding, release, order = threading.Event(), threading.Event(), []

    def first():
        try:
            with transaction.atomic():
                lock_crawl_store(crawl.pk)
                holding.set()
                release.wait(20)
                order.append("first batch commits")
        finally:
            holding.set()

    def store(crawl_id, label):
        holding.wait(20)
        with transaction.atomic():
            lock_crawl_store(crawl_id)
            order.append(label)

    threads = start_workers(first, lambda: store(crawl.pk, "second batch"),
                            lambda: store(other.pk, "other crawl's batch"))
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not (order and _waiting_for_store_lock(crawl.pk)):
            time.sleep(0.02)
        assert order == ["other crawl's batch"], "the other crawl's batch waited, or this crawl's did not"
        assert _waiting_for_store_lock(crawl.pk) == 1  # the second batch waits for the first
    finally:
        release.set()
        join_workers(threads)
    assert order == ["other crawl's batch", "first batch commits", "second batch"]


def _waiting_for_store_lock(crawl_id: int) -> int:
    """Transactions waiting for the crawl's store lock (an advisory lock on two int4 keys)."""
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
                       "AND classid = %s AND objid = %s AND objsubid = 2", [STORE_LOCK, crawl_id])
        return cursor.fetchone()[0]
