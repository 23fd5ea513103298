"""Cost of a crawl page's live panels (polled every 2 s and 5 s) on a crawl of ~2,000 pages.

A breadth-first crawl of the generated test web (served by this process on a loopback proxy) runs to
its budget with jobs in-process; then the panel (`/crawls/<id>/` asked by htmx) and the discovery
panel (`/crawls/<id>/discovery/`) are requested as a logged-in operator, through Django's test
client (the whole view: session, queries, template), counting queries and timing each request.
The database is DATABASE_URL when set (it is migrated first), else a fresh SQLite file in a
temporary VAR_DIR.

    .venv/bin/python bench/live_panel.py [--quick] [--pages N] [--repeat R]

Last line: RESULT pages=... panel_queries=... panel_p50_ms=... panel_max_ms=... discovery_queries=... discovery_p50_ms=...
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def configure(var_dir: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "crawlweb.settings")
    if not os.environ.get("DATABASE_URL"):
        os.environ["VAR_DIR"] = var_dir  # a fresh SQLite file, never the project's own
    os.environ.pop("REDIS_URL", None)
    os.environ.update(JOBS_INPROCESS_MODE="sync", CRAWLER_WARC="0", CRAWLER_HOST_INTERVAL="0",
                      CRAWLER_IDLE_FINISH_SECONDS="2", CRAWLER_READ_TIMEOUT="2", LOG_LEVEL="WARNING")
    import django

    django.setup()


def crawl_test_web(pages: int):
    from crawlweb.models import Crawl, SeedList
    from crawlweb.jobs.crawl_control import start_crawl
    from crawlweb.services.network import fetcher_for
    from crawlweb.testweb.generator import generate_web
    from crawlweb.testweb.server import TestWebServer

    web = generate_web(seed=7, size=max(40, pages // 6), pages_per_site=8)
    with TestWebServer(web, host="127.0.0.1", port=0) as server:
        os.environ.update(HTTP_PROXY=server.proxy_url, http_proxy=server.proxy_url, NO_PROXY="127.0.0.1,localhost")
        fetcher_for.cache_clear()
        seeds = SeedList.objects.create(name=f"bench live panel {time.time():.0f}")
        for url in web.truth()["seed_urls"]:
            seeds.seeds.create(url=url)
        crawl = Crawl.objects.create(name="bench: live panel", seed_list=seeds, page_budget=pages,
                                     config={"host_interval": 0, "address_policy": "private"})
        started = time.monotonic()
        start_crawl(crawl)  # synchronous: returns at the crawl's end
        crawl.refresh_from_db()
        print(f"crawled {crawl.pages_fetched} pages in {time.monotonic() - started:.1f} s ({crawl.state})", flush=True)
    return crawl


def measure(client, url: str, repeat: int, headers: dict) -> tuple[int, list[float]]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url, **headers)  # the session is loaded once, as in a browser that keeps polling
    timings, queries = [], 0
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(url, **headers)
            timings.append(1000 * (time.perf_counter() - started))
        assert response.status_code == 200, (url, response.status_code)
        queries = len(captured)
    return queries, timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="300 pages, 10 requests (under a minute)")
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    pages, repeat = (300, 10) if args.quick else (args.pages, args.repeat)
    with tempfile.TemporaryDirectory(prefix="bench-live-") as var_dir:
        configure(var_dir)
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.test import Client

        call_command("migrate", verbosity=0)
        crawl = crawl_test_web(pages)
        user, _ = get_user_model().objects.get_or_create(username="bench-operator", defaults={"is_staff": True})
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(user)
        panel_queries, panel = measure(client, f"/crawls/{crawl.pk}/", repeat, {"HTTP_HX_REQUEST": "true"})
        discovery_queries, discovery = measure(client, f"/crawls/{crawl.pk}/discovery/", repeat, {})
        print(f"panel: {panel_queries} queries, p50 {statistics.median(panel):.1f} ms, max {max(panel):.1f} ms")
        print(f"discovery panel: {discovery_queries} queries, p50 {statistics.median(discovery):.1f} ms")
        print(f"RESULT pages={crawl.pages_fetched} panel_queries={panel_queries} "
              f"panel_p50_ms={statistics.median(panel):.1f} panel_max_ms={max(panel):.1f} "
              f"discovery_queries={discovery_queries} discovery_p50_ms={statistics.median(discovery):.1f}")


if __name__ == "__main__":
    main()
