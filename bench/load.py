"""Benchmark: the dashboard and the judging endpoint under concurrent clients while a crawl runs.

    .venv/bin/python bench/load.py [--quick] [--dashboard-clients K] [--evaluators E] [--seconds S]
                                   [--workers W] [--threads T] [--think SECONDS]

1. Creates a PostgreSQL database of its own (``bench_load_<pid>`` on ``BENCH_PG_URL``, default
   postgres://postgres@127.0.0.1:5432/postgres), migrates it, and fills it as bench/judging.py
   does (candidate pairs, an evaluation, evaluators ``judge<i>``), plus a staff user.
2. Serves the generated test web on a loopback proxy and starts a crawl of it in a process of its
   own (``manage.py crawl start``, jobs in-process, on the same database): the dashboard is read
   while pages are being stored, as an operator would read it.
3. Serves the project with gunicorn (W sync workers, or gthread workers of T threads with
   ``--threads T``; runserver without gunicorn), and runs K dashboard clients (threads, logged in
   as staff) that read the index, the crawl's page, its polling partials (htmx requests) and its
   summary.json, with ``--think`` seconds between requests as a polling browser has, and
   E evaluators (bench/judging.py's Evaluator) that answer cards with ``HX-Request``. Untimed
   first: a round of every page per server worker thread, each evaluator's card loads, every
   client's login; then all start together (a barrier). Each client stops after its request
   budget or S seconds, whichever is first.
4. Prints p50/p95 per page and for each side, the same for the time spent in the server's
   workers (gunicorn's access log: no connect, no wait for a free worker), and the load average
   (the machine is shared).
5. In-process probe: each dashboard page 20 times (quick: 5) through Django's test client, figures counted on
   every request: its queries and milliseconds, which do not depend on the other clients.

Last line: RESULT dashboard_p95_ms=<float> judge_p95_ms=<float> errors=<int>
(targets: dashboard p95 < 200 ms, judging p95 < 100 ms, no errors).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import judging  # noqa: E402  (bench/judging.py: database, population, server, evaluators)

STAFF, STAFF_PASSWORD = "load-operator", "bench-load-pw"


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller population and a shorter run (under 60 s)")
    parser.add_argument("--dashboard-clients", type=int, default=4, help="concurrent dashboard readers")
    parser.add_argument("--evaluators", type=int, default=2, help="concurrent evaluators")
    parser.add_argument("--seconds", type=float, help="load time limit (default 60; quick 8)")
    parser.add_argument("--requests", type=int, help="requests per client at most (default 600; quick 150)")
    parser.add_argument("--think", type=float, default=0.25, help="seconds between a dashboard client's requests")
    parser.add_argument("--pairs", type=int, help="candidate pairs (default 20,000; quick 2,000)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=1, help="threads per worker: 1 = sync workers (default), "
                                                                 "more = gthread workers with keep-alive")
    parser.add_argument("--keep-db", action="store_true")
    args = parser.parse_args()
    args.seconds = args.seconds or (8.0 if args.quick else 60.0)
    args.requests = args.requests or (150 if args.quick else 600)
    args.pairs = args.pairs or (2_000 if args.quick else 20_000)
    for name in ("dashboard_clients", "evaluators"):
        if not 0 <= getattr(args, name) <= 16:
            parser.error(f"--{name.replace('_', '-')} must be between 0 and 16")
    if not 1 <= args.workers <= 8 or not 1 <= args.threads <= 16:
        parser.error("--workers must be between 1 and 8 and --threads between 1 and 16")
    if args.dashboard_clients + args.evaluators == 0:
        parser.error("no clients: give --dashboard-clients or --evaluators")
    return args


def logged_in_session(base: str, username: str, password: str) -> requests.Session:
    session = requests.Session()
    session.trust_env = False  # loopback only, never through the test web's proxy
    session.get(f"{base}/labeling/login/").raise_for_status()
    response = session.post(f"{base}/labeling/login/", data={
        "username": username, "password": password, "csrfmiddlewaretoken": session.cookies["csrftoken"]},
        headers={"Referer": f"{base}/labeling/login/"}, allow_redirects=False)
    if response.status_code != 302 or "sessionid" not in session.cookies:
        raise RuntimeError(f"login of {username} failed ({response.status_code})")
    return session


def dashboard_pages(crawl_id: int) -> list[tuple[str, str, bool]]:
    """(label, path, htmx) of what an operator's browser loads and polls."""
    return [("index", "/", False), ("index partial", "/", True), ("crawl page", f"/crawls/{crawl_id}/", False),
            ("crawl status partial", f"/crawls/{crawl_id}/", True),
            ("discovery partial", f"/crawls/{crawl_id}/discovery/", True),
            ("summary.json", f"/crawls/{crawl_id}/summary.json", False)]


class DashboardClient(threading.Thread):
    """An operator's browser on the dashboard: goes round the pages and partials, pausing between."""

    def __init__(self, base: str, crawl_id: int, index: int, budget: int, deadline: float, think: float,
                 ready: threading.Barrier):
        super().__init__(daemon=True)
        self.ready = ready
        self.base, self.crawl_id, self.index = base, crawl_id, index
        self.budget, self.deadline, self.think = budget, deadline, think
        self.timings: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []

    def run(self):
        try:
            session = logged_in_session(self.base, STAFF, STAFF_PASSWORD)
        except Exception as error:
            self.errors.append(f"login: {error}")
            self.ready.abort()
            return
        self.ready.wait(60)  # every client logged in and every server worker warm: timing starts
        pages, sent = dashboard_pages(self.crawl_id), 0
        while sent < self.budget and time.monotonic() < self.deadline:
            label, path, htmx = pages[(sent + self.index) % len(pages)]
            headers = {"HX-Request": "true"} if htmx else {}
            started = time.perf_counter()
            try:
                response = session.get(self.base + path, headers=headers, timeout=30, allow_redirects=False)
                elapsed = (time.perf_counter() - started) * 1000.0
                if response.status_code != 200:
                    self.errors.append(f"{path}: HTTP {response.status_code}")
                else:
                    self.timings[label].append(elapsed)
            except requests.RequestException as error:
                self.errors.append(f"{path}: {type(error).__name__}")
            sent += 1
            time.sleep(self.think)


def warm_up(base: str, crawl_id: int, server_workers: int) -> None:
    """Untimed: each server worker's first requests import code and compile templates."""
    session = logged_in_session(base, STAFF, STAFF_PASSWORD)
    for _ in range(server_workers):
        for _label, path, htmx in dashboard_pages(crawl_id):
            session.get(base + path, headers={"HX-Request": "true"} if htmx else {}, timeout=60)


def in_process_probe(crawl_id: int, rounds: int = 10) -> dict[str, tuple[int, list[float]]]:
    """Each dashboard page through Django's test client (no HTTP, no other client): {label: (queries
    of the last request, milliseconds of each)}. The crawl's figures are counted on every request
    (DASHBOARD_CACHE_SECONDS off), as the first poll of a window counts them."""
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    settings.DASHBOARD_CACHE_SECONDS = 0
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(User.objects.get(username=STAFF))
    probed = {}
    for label, path, htmx in dashboard_pages(crawl_id):
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        client.get(path, **headers)  # imports, compiled templates
        timings, queries = [], 0
        for _ in range(rounds):
            started = time.perf_counter()
            with CaptureQueriesContext(connection) as captured:
                response = client.get(path, **headers)
            timings.append((time.perf_counter() - started) * 1000.0)
            queries = len(captured)
            if response.status_code != 200:
                raise SystemExit(f"in-process {path}: HTTP {response.status_code}")
        probed[label] = (queries, timings)
    return probed


def start_crawl_process(env: dict, seeds: list[str], log_path: Path) -> subprocess.Popen:
    command = [sys.executable, "manage.py", "crawl", "start", "--name", "load bench crawl", "--budget", "5000",
               "--host-interval", "1.0"]  # the default politeness
    for url in seeds:
        command += ["--url", url]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=open(log_path, "wb"), stderr=subprocess.STDOUT)


def wait_for_crawl(name: str, crawl_process: subprocess.Popen, log_path: Path):
    from crawlweb.models import Crawl

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        crawl = Crawl.objects.filter(name=name).first()
        if crawl is not None and crawl.pages_fetched > 0:
            return crawl
        if crawl_process.poll() is not None:
            raise SystemExit(f"the crawl process exited with {crawl_process.returncode}; see {log_path}")
        time.sleep(0.2)
    raise SystemExit(f"the crawl stored no page within 60 s; see {log_path}")


def summary(values: list[float]) -> str:
    if not values:
        return "no requests"
    return (f"{len(values)} requests, p50 {statistics.median(values):.1f} ms, "
            f"p95 {judging.percentile(values, 0.95):.1f} ms, max {max(values):.1f} ms")


def main():
    args = parse_args()
    server_url = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    name = f"bench_load_{os.getpid()}"
    total_started = time.perf_counter()
    database_url = judging.create_database(server_url, name)
    os.environ.update({"DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "crawlweb.settings"})
    os.environ.pop("REDIS_URL", None)
    var_dir = Path(os.environ.get("VAR_DIR", ROOT / "var"))
    var_dir.mkdir(parents=True, exist_ok=True)
    server = crawl_process = web = None
    try:
        import django
        from django.core.management import call_command
        django.setup()
        call_command("migrate", verbosity=0)
        evaluation, _insert_s, _sample_s = judging.populate(args.pairs, max(args.evaluators, 1))
        from django.contrib.auth.models import User
        User.objects.create_user(STAFF, password=STAFF_PASSWORD, is_staff=True)
        print(f"database {name}: {args.pairs:,} candidate pairs, evaluation of {evaluation.items.count()} items "
              f"({time.perf_counter() - total_started:.1f} s)")

        from crawlweb.testweb.generator import generate_web
        from crawlweb.testweb.server import TestWebServer
        web = TestWebServer(generate_web(seed=7, size=40, pages_per_site=12), host="127.0.0.1", port=0)
        web.start()
        proxy = {"HTTP_PROXY": web.proxy_url, "http_proxy": web.proxy_url,
                 "NO_PROXY": "127.0.0.1,localhost,::1", "no_proxy": "127.0.0.1,localhost,::1"}
        env = {**os.environ, "DEBUG": "0", "WARC_DIR": str(var_dir / "bench-load-warc")}
        crawl_log = var_dir / "bench-load-crawl.log"
        crawl_process = start_crawl_process({**env, **proxy, "JOBS_INPROCESS_MODE": "thread"},
                                            web.web.truth()["seed_urls"], crawl_log)
        crawl = wait_for_crawl("load bench crawl", crawl_process, crawl_log)
        from django.db import connections
        connections.close_all()

        port = judging.free_port()
        access_log = var_dir / "bench-load-access.log"
        access_log.unlink(missing_ok=True)
        server = judging.start_server({**env, "JOBS_INPROCESS_MODE": "sync"}, port, args.workers,
                                      var_dir / "bench-load-server.log", args.threads, access_log)
        base = f"http://127.0.0.1:{port}"
        warm_up(base, crawl.pk, args.workers * args.threads)
        # Every client logs in (evaluators also load their card 2 × workers times) before the start.
        ready = threading.Barrier(args.dashboard_clients + args.evaluators + 1)
        deadline = time.monotonic() + args.seconds + 60  # until the start; set again at the barrier
        readers = [DashboardClient(base, crawl.pk, i, args.requests, deadline, args.think, ready)
                   for i in range(args.dashboard_clients)]
        evaluators = [judging.Evaluator(base, evaluation.pk, i, args.requests, deadline,
                                        warmup=2 * args.workers * args.threads, ready=ready)
                      for i in range(args.evaluators)]
        for client in (*readers, *evaluators):
            client.start()
        try:
            ready.wait(60)
        except threading.BrokenBarrierError:
            pass  # a client failed to log in: its error is reported below
        deadline = time.monotonic() + args.seconds
        for client in (*readers, *evaluators):
            client.deadline = deadline
        warm_lines = judging.line_count(access_log)
        load_before = os.getloadavg()
        started = time.perf_counter()
        for client in (*readers, *evaluators):
            client.join(args.seconds + 60)
        wall = time.perf_counter() - started
        load_after = os.getloadavg()
        crawl.refresh_from_db()

        errors = [e for r in readers for e in r.errors] + [e.error for e in evaluators if e.error]
        by_page = defaultdict(list)
        for reader in readers:
            for label, values in reader.timings.items():
                by_page[label] += values
        dashboard = [t for values in by_page.values() for t in values]
        judge = [t for e in evaluators for t in e.timings]
        print(f"{args.dashboard_clients} dashboard clients (every {args.think} s), {args.evaluators} evaluators, "
              f"{wall:.1f} s; gunicorn {args.workers} workers × {args.threads} threads; crawl {crawl.pk} at {crawl.pages_fetched} pages "
              f"({crawl.state})")
        for label, values in by_page.items():
            print(f"  {label:22s} {summary(values)}")
        print(f"  {'dashboard, all':22s} {summary(dashboard)} (target p95 < 200 ms)")
        print(f"  {'judging answer':22s} {summary(judge)} (target p95 < 100 ms)")
        in_worker = judging.server_milliseconds(access_log, warm_lines)
        answers = [ms for (method, _path), values in in_worker.items() if method == "POST" for ms in values]
        pages = [ms for (method, _path), values in in_worker.items() if method == "GET" for ms in values]
        print(f"in the server's workers (access log, request read → response written): dashboard "
              f"{summary(pages)}; answers {summary(answers)}")
        print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min), "
              f"{os.cpu_count()} cores")
        for error in errors[:10]:
            print("  error:", error)
        print("in-process (test client, no HTTP, no other client, figures counted on every request):")
        for label, (queries, timings) in in_process_probe(crawl.pk, rounds=5 if args.quick else 20).items():
            print(f"  {label:22s} {queries:3d} queries, p50 {statistics.median(timings):.1f} ms, "
                  f"p95 {judging.percentile(timings, 0.95):.1f} ms")
        print(f"total {time.perf_counter() - total_started:.1f} s")
        dashboard_p95 = judging.percentile(dashboard, 0.95) if dashboard else 0.0
        judge_p95 = judging.percentile(judge, 0.95) if judge else 0.0
        print(f"RESULT dashboard_p95_ms={dashboard_p95:.2f} judge_p95_ms={judge_p95:.2f} errors={len(errors)}")
    finally:
        for process in (server, crawl_process):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
        if web is not None:
            web.stop()
        from django.db import connections
        connections.close_all()
        if not args.keep_db:
            judging.drop_database(server_url, name)


if __name__ == "__main__":
    main()
