"""A frontier of millions, measured: lease batches over N Targets and the dashboard over M pages.

Run by bench/scale.py in a process of its own, on a database of its own (DATABASE_URL, migrated):

    DATABASE_URL=... python bench/support/scale_bulk.py --targets 5000000 --pages 1000000 [--rounds 30]

Rows are made by PostgreSQL itself (INSERT ... SELECT generate_series): one crawl, one site and host
per TARGETS_PER_HOST Targets, the Targets (70 % pending, the rest done, priorities spread, a few
hosts busy or waiting for their politeness clock) and the pages (half Serbian, half English, on the
same hosts). Every NOT NULL column the statement does not name gets its type's empty value, so the
generator follows the models as they change. The tally triggers (crawlweb.tallies) count these
INSERTs as they count a crawl's, and the deltas are folded as a crawl step folds its own. Then, timed:
- lease: the project's crawlweb.services.leasing.lease_batch (CRAWLER_BATCH_SIZE, as a crawl step
  asks), ROUNDS times; each batch's Targets are then marked done and its hosts given a politeness
  wait, as a crawl step would leave them (untimed);
- placement: crawlweb.services.targets.add_new_targets with the links of one crawl step's batch
  (CRAWLER_BATCH_SIZE pages of LINKS_PER_PAGE links, a quarter of them URLs the crawl already has),
  ROUNDS times;
- dashboard: each dashboard page of the crawl through Django's test client as a staff user, with the
  figure cache off (DASHBOARD_CACHE_SECONDS=0), so every request counts.
When a p95 is over its target, the slowest statements of one more call are run under EXPLAIN ANALYZE
and the plans are printed, so the missing index can be read off them.
Last line: one JSON object with the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "crawlweb.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from crawlweb.models import Crawl, Host, Page, Site  # noqa: E402
from crawlweb.crawler.candidates import Candidate  # noqa: E402
from crawlweb.services.leasing import lease_batch  # noqa: E402
from crawlweb.services.targets import NewTarget, add_new_targets  # noqa: E402
from crawlweb.tallies.fold import fold_tallies  # noqa: E402
from crawlweb.tallies.triggers import TALLY_TABLES  # noqa: E402
from frontier.models import Target  # noqa: E402

TARGETS_PER_HOST = 25
LINKS_PER_PAGE = 40
LEASE_TARGET_MS, DASHBOARD_TARGET_MS = 50.0, 300.0
EMPTY_BY_TYPE = {"character varying": "''", "text": "''", "integer": "0", "bigint": "0", "smallint": "0",
                 "double precision": "0", "boolean": "false", "jsonb": "'{}'::jsonb",
                 "timestamp with time zone": "now()", "real": "0"}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def insert_series(model, count: int, given: dict[str, str]) -> float:
    """INSERT ``count`` rows of ``model`` from generate_series (``n`` = 1..count); returns seconds."""
    table = model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute("SELECT column_name, data_type FROM information_schema.columns WHERE table_name = %s"
                       " AND is_nullable = 'NO' AND column_default IS NULL", [table])
        required = {name: EMPTY_BY_TYPE.get(kind, "''") for name, kind in cursor.fetchall() if name != "id"}
        columns = {**required, **given}
        started = time.perf_counter()
        cursor.execute(f"INSERT INTO {table} ({', '.join(columns)}) "
                       f"SELECT {', '.join(columns.values())} FROM generate_series(1, {int(count)}) AS n")
    return time.perf_counter() - started


def populate(targets: int, pages: int) -> tuple[Crawl, dict]:
    crawl = Crawl.objects.create(name="scale bulk", state=Crawl.State.RUNNING, page_budget=10 * pages,
                                 pages_fetched=pages)
    hosts = max(1, targets // TARGETS_PER_HOST)
    spent = {"sites": insert_series(Site, hosts, {"name": "'site' || n || '.rs'", "registrable_domain": "'site' || n || '.rs'"})}
    first_site = Site.objects.order_by("id").values_list("id", flat=True).first()
    spent["hosts"] = insert_series(Host, hosts, {
        "name": "'www.site' || n || '.rs'", "site_id": f"{first_site} + n - 1",
        # one host in 20 is mid-request, one in 10 waits for its politeness clock
        "busy_until": "CASE WHEN n % 20 = 0 THEN now() + interval '1 hour' END",
        "next_fetch_at": "CASE WHEN n % 10 = 0 THEN now() + interval '1 hour' END"})
    first_host = Host.objects.order_by("id").values_list("id", flat=True).first()
    spent["targets"] = insert_series(Target, targets, {
        "crawl_id": str(crawl.pk), "url": f"'http://www.site' || (n % {hosts} + 1) || '.rs/p' || n || '.html'",
        "host_id": f"{first_host} + n % {hosts}", "site_id": f"{first_site} + n % {hosts}",
        "origin": "'forward'", "state": "CASE WHEN n % 10 < 7 THEN 'pending' ELSE 'done' END",
        "priority": "(n::bigint * 7919 % 1000) / 1000.0", "depth": "n % 8"})
    spent["pages"] = insert_series(Page, pages, {
        "crawl_id": str(crawl.pk), "site_id": f"{first_site} + n % {hosts}", "host_id": f"{first_host} + n % {hosts}",
        "url": f"'http://www.site' || (n % {hosts} + 1) || '.rs/p' || n || '.html'", "final_url": "''",
        "status_code": "200", "content_type": "'text/html'", "md5": "md5(n::text)", "size": "20000",
        "language": "CASE WHEN n % 2 = 0 THEN 'sr' ELSE 'en' END", "title": "'Strana ' || n"})
    started = time.perf_counter()
    fold_tallies(crawl.pk)
    spent["tallies folded"] = time.perf_counter() - started
    started = time.perf_counter()
    with connection.cursor() as cursor:
        # the fold deleted a delta per host and per site: what autovacuum does next (the tally tables
        # are vacuumed after 10,000 dead rows) is done here, so the timings do not depend on its turn
        cursor.execute(f"VACUUM {', '.join(TALLY_TABLES)}")
        cursor.execute("ANALYZE")
    spent["vacuum, analyze"] = time.perf_counter() - started
    return crawl, spent


def time_leases(crawl: Crawl, rounds: int) -> list[float]:
    timings = []
    for number in range(rounds):
        started = time.perf_counter()
        leases = lease_batch(crawl, f"bench-{number}", settings.CRAWLER_BATCH_SIZE, settings.CRAWLER_LEASE_SECONDS)
        timings.append((time.perf_counter() - started) * 1000.0)
        Target.objects.filter(pk__in=[lease.target.pk for lease in leases]).update(state=Target.State.DONE)
        Host.objects.filter(pk__in=[lease.host.pk for lease in leases]).update(
            busy_until=None, next_fetch_at=timezone.now() + timedelta(seconds=60))
    return timings


def step_links(round_number: int, pages: int, hosts: int, targets: int) -> list[NewTarget]:
    """The links of one step's pages, as its storing turns them into Targets: per page, half new URLs
    of its own host, a quarter URLs the crawl has (the bulk Targets' URLs), a quarter new URLs of
    other hosts."""
    links = []
    for page in range(pages):
        seed = (round_number * pages + page) * 7919
        home = seed % hosts + 1
        for i in range(LINKS_PER_PAGE):
            if i % 4 == 0:
                n = (seed + i * 104729) % targets + 1  # a bulk Target's URL: host n % hosts + 1
                url = f"http://www.site{n % hosts + 1}.rs/p{n}.html"
            elif i % 4 == 1:
                url = f"http://www.site{(home + i * 31) % hosts + 1}.rs/new/{round_number}/{page}/{i}.html"
            else:
                url = f"http://www.site{home}.rs/new/{round_number}/{page}/{i}.html"
            links.append(NewTarget(Candidate(url), "forward", depth=3))
    return links


def time_placement(crawl: Crawl, rounds: int, targets: int) -> list[float]:
    hosts = max(1, targets // TARGETS_PER_HOST)
    add_new_targets(crawl, step_links(rounds, 1, hosts, targets))  # imports and caches, untimed
    timings = []
    for number in range(rounds):
        links = step_links(number, settings.CRAWLER_BATCH_SIZE, hosts, targets)
        started = time.perf_counter()
        with transaction.atomic():
            add_new_targets(crawl, links)
        timings.append((time.perf_counter() - started) * 1000.0)
    return timings


def dashboard_pages(crawl_id: int) -> list[tuple[str, str, bool]]:
    return [("index", "/", False), ("crawl page", f"/crawls/{crawl_id}/", False),
            ("crawl status partial", f"/crawls/{crawl_id}/", True),
            ("discovery partial", f"/crawls/{crawl_id}/discovery/", True),
            ("summary.json", f"/crawls/{crawl_id}/summary.json", False)]


def time_dashboard(crawl: Crawl, rounds: int) -> dict[str, list[float]]:
    settings.DASHBOARD_CACHE_SECONDS = 0
    staff = User.objects.create_user("scale-operator", password="scale-bench-pw", is_staff=True)
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(staff)
    timings: dict[str, list[float]] = {}
    for label, path, htmx in dashboard_pages(crawl.pk):
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        client.get(path, **headers)  # imports and compiled templates, untimed
        for _ in range(rounds):
            started = time.perf_counter()
            response = client.get(path, **headers)
            timings.setdefault(label, []).append((time.perf_counter() - started) * 1000.0)
            if response.status_code != 200:
                raise SystemExit(f"dashboard {path}: HTTP {response.status_code}")
    return timings


def explain_slowest(call, top: int = 3) -> None:
    """Run ``call`` once more, then EXPLAIN ANALYZE its slowest statements (printed)."""
    with CaptureQueriesContext(connection) as captured:
        call()
    slowest = sorted(captured.captured_queries, key=lambda q: float(q["time"]), reverse=True)[:top]
    for query in slowest:
        sql = query["sql"]
        print(f"  -- {float(query['time']) * 1000:.1f} ms: {sql[:600]}")
        if not sql.lstrip().upper().startswith("SELECT"):
            continue  # EXPLAIN ANALYZE runs the statement: writes are not run twice
        # a FOR UPDATE statement takes its row locks: in a transaction rolled back at once
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql)
            for (line,) in cursor.fetchall()[:45]:
                print("     ", line)
            transaction.set_rollback(True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", type=int, required=True)
    parser.add_argument("--pages", type=int, required=True)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--no-explain", action="store_true", help="no EXPLAIN ANALYZE when over target")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("scale_bulk measures PostgreSQL: set DATABASE_URL to a migrated PostgreSQL database")
    crawl, spent = populate(args.targets, args.pages)
    print("bulk rows made in " + ", ".join(f"{name} {s:.1f} s" for name, s in spent.items()), flush=True)
    leases = time_leases(crawl, args.rounds)
    lease_p95 = percentile(leases, 0.95)
    print(f"lease_batch of {settings.CRAWLER_BATCH_SIZE} over {args.targets:,} Targets: p50 "
          f"{statistics.median(leases):.1f} ms, p95 {lease_p95:.1f} ms, max {max(leases):.1f} ms ({args.rounds} batches)",
          flush=True)
    if lease_p95 > LEASE_TARGET_MS and not args.no_explain:
        print(f"lease p95 over {LEASE_TARGET_MS:.0f} ms; slowest statements of one more batch:")
        explain_slowest(lambda: lease_batch(crawl, "bench-explain", settings.CRAWLER_BATCH_SIZE,
                                            settings.CRAWLER_LEASE_SECONDS))
    placement = time_placement(crawl, args.rounds, args.targets)
    place_p95 = percentile(placement, 0.95)
    print(f"add_new_targets of a step's {settings.CRAWLER_BATCH_SIZE * LINKS_PER_PAGE:,} links over {args.targets:,} "
          f"Targets: p50 {statistics.median(placement):.1f} ms, p95 {place_p95:.1f} ms, max {max(placement):.1f} ms",
          flush=True)
    pages = time_dashboard(crawl, max(4, args.rounds // 3))
    worst = max(pages, key=lambda label: percentile(pages[label], 0.95))
    for label, values in pages.items():
        print(f"dashboard {label:22s} over {args.pages:,} pages: p50 {statistics.median(values):.1f} ms, "
              f"p95 {percentile(values, 0.95):.1f} ms")
    dashboard_p95 = percentile(pages[worst], 0.95)
    if dashboard_p95 > DASHBOARD_TARGET_MS and not args.no_explain:
        path, htmx = next((p, h) for label, p, h in dashboard_pages(crawl.pk) if label == worst)
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(User.objects.get(username="scale-operator"))
        print(f"dashboard p95 over {DASHBOARD_TARGET_MS:.0f} ms ({worst}); slowest statements of one more request:")
        explain_slowest(lambda: client.get(path, **({"HTTP_HX_REQUEST": "true"} if htmx else {})))
    print(json.dumps({"lease_p95_ms": lease_p95, "place_p95_ms": place_p95,
                      "dashboard_p95_ms": dashboard_p95, "dashboard_worst": worst,
                      "targets": args.targets, "pages": args.pages}))


if __name__ == "__main__":
    main()
