"""Scale: a long crawl of a heavy-tailed web on PostgreSQL + Redis with 2 RQ workers, and a frontier of millions.

    .venv/bin/python bench/scale.py [--quick] [--budget N] [--sites S] [--strategy cobfc --modules M01,M03]
                                    [--max-seconds T] [--targets N] [--bulk-pages M] [--no-bulk] [--keep-db]

1. Plans the generated test web with ``size_distribution="heavy-tailed"`` (full: 20,000 sites, the largest
   5,000 slugs, ~222,000 pages; quick: 400 sites) and serves it on the loopback proxy; prints the CPU
   seconds and memory it took to plan and to serve. The full web is twice the budget, as a national web
   is many times any budget: with a web of the budget's size (10,000 sites) the last tenth is the tails of
   the largest sites, one request at a time per host, and measures the web running dry, not the engine.
2. PostgreSQL database ``scalebench_run`` (made from a migrated template ``scalebench_tpl``) and Redis
   database 7 (flushed; refused when another client uses it). ``manage.py crawl start --no-wait`` with
   the directory homes as seeds, the budget, host interval 0 (politeness off: on loopback the politeness
   bound would measure the web's shape, not the engine), address policy private, parallel steps 2 per
   worker, and ``--strategy``/``--modules`` when given; then 2 workers ``manage.py rqworker`` (the settings'
   worker class), as docs/scale.md advises: one ``crawl score train``, one ``score train crawl``
   (``--workers score-first``: both ``score train crawl``).
3. Every second: pages fetched, the queues, each worker's RSS (its process tree), which sites have a
   pairing score row. The crawl ends at its budget or --max-seconds after its first page (then it is
   stopped and measured there; worker start-up, up to a minute on a loaded machine, is not counted); the workers get --drain seconds to finish the queued work, then are stopped.
4. Reads: RQ's job records (started_at/ended_at per job, kept an hour), SiteVerdict rows, page times,
   pg_database_size and pg_total_relation_size per table, pgstattuple of the largest table, WARC bytes.
5. The frontier of millions (bench/support/scale_bulk.py, database ``scalebench_bulk``): lease batch and
   dashboard p95 over --targets Targets and --bulk-pages pages (full 5,000,000 / 1,000,000; quick
   100,000 / 25,000).

Keys of the last line (numbers only; -1 = not measured):
  pages              pages fetched (Crawl.pages_fetched) when the crawl ended or was stopped
  pages_per_s_first  pages/s over the first 10 % of those pages (clock from the last sample with none)
  pages_per_s_last   pages/s over the last 10 %;  flat_ratio = last / first
  scoring_share      seconds of jobs on the score queue (less crawl steps queued behind it) / seconds of all
                     jobs (RQ job records)
  verdict_lag_p95_s  p95 over the sites with a page stored during the crawl of (SiteVerdict.decided_at - the
                     moment its evidence was stored: for a site judged bilingual its first page in the second of
                     the pair's languages, for any other its first page); a site with no verdict when the
                     workers stop counts its wait until then; with no verdict during the crawl, the first
                     time a site's pairing score (SiteCredibility) was seen, polled each second (printed
                     which). The lag from the first page is printed beside it, with the part of it that is
                     the crawl's order (how long the crawl took to reach a bilingual site's second language),
                     which no scoring can shorten
  db_kb_per_page     pg_database_size / pages stored (Page rows), KB
  bloat_ratio        largest table: on-disk heap+TOAST / live tuple bytes (pgstattuple)
  worker_rss_mb      largest RSS of a worker's process tree over the crawl (each process's VmRSS summed; the
                     tree's PSS, where the pages a forked child shares with its worker count once, is printed beside)
  lease_p95_ms_5m, dashboard_p95_ms_1m   the frontier-of-millions figures (at the sizes printed)
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402

from bench.crawl_throughput import Procs, admin, database_url, drop_database, reap, tail  # noqa: E402
from bench.support import scale_measures as measures  # noqa: E402
from bench.support.process_memory import process_rss_mb, tree_cpu_s, tree_pss_mb, tree_rss_mb  # noqa: E402
from crawlweb.testweb import TestWebServer, generate_web  # noqa: E402

PYTHON = sys.executable
RUN_DB, TEMPLATE_DB, BULK_DB = "scalebench_run", "scalebench_tpl", "scalebench_bulk"
REDIS_URL = "redis://127.0.0.1:6379/7"
WORKERS = 2
STARTUP_LIMIT_S = 60.0  # workers that store no page by then (a broken set-up) stop the bench


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small web and small counts (under 60 s)")
    parser.add_argument("--budget", type=int, help="pages to fetch (full 100,000; quick 1,500)")
    parser.add_argument("--sites", type=int, help="sites of the web (full 20,000; quick 400)")
    parser.add_argument("--largest", type=int, help="slugs of the largest site (full 5,000; quick 300)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--strategy", help="crawl strategy (default: the crawl's default)")
    parser.add_argument("--modules", help="frontier modules, e.g. M01,M03")
    parser.add_argument("--host-interval", type=float, default=0.0)
    parser.add_argument("--max-seconds", type=float, help="crawl time cap from the first page stored (full 1,800; quick 10)")
    parser.add_argument("--drain", type=float, help="seconds for queued work after the crawl (full 120; quick 3)")
    parser.add_argument("--interval", type=float, help="seconds per line of the throughput curve (full 30; quick 2)")
    parser.add_argument("--targets", type=int, help="Targets of the bulk measure (full 5,000,000; quick 100,000)")
    parser.add_argument("--bulk-pages", type=int, help="pages of the bulk measure (full 1,000,000; quick 25,000)")
    parser.add_argument("--no-bulk", action="store_true", help="skip the frontier-of-millions measure")
    parser.add_argument("--workers", choices=("split", "score-first"), default="split",
                        help="queue order of the 2 workers: split (one crawl-first, one score-first) or both "
                             "score-first")
    parser.add_argument("--score-worker-prep", type=int, metavar="N",
                        help="CRAWLER_SCORE_WORKER_PREPARE_PROCESSES: page preparation processes of a score-first "
                             "worker (default: the setting's, 0)")
    parser.add_argument("--keep-db", action="store_true", help="keep the databases for a look afterwards")
    args = parser.parse_args()
    full = {"budget": 100_000, "sites": 20_000, "largest": 5000, "max_seconds": 1800, "drain": 120,
            "interval": 30, "targets": 5_000_000, "bulk_pages": 1_000_000}
    # quick: within 60 s on this machine at a load of ~4 (the bulk rows' making and folding is a third of it)
    quick = {"budget": 1500, "sites": 400, "largest": 300, "max_seconds": 10, "drain": 3, "interval": 2,
             "targets": 100_000, "bulk_pages": 25_000}
    for key, value in (quick if args.quick else full).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if args.budget < 10 or args.sites < 16 or args.max_seconds <= 0:
        parser.error("--budget must be at least 10, --sites at least 16 and --max-seconds positive")
    return args


class ScaleRun:
    def __init__(self, args, tmp: Path):
        self.args, self.tmp, self.procs = args, tmp, Procs()
        self.samples: list[tuple[float, int]] = []      # (epoch, pages fetched)
        self.curve: list[str] = []
        self.rss: dict[int, list[float]] = {}           # worker number -> samples (MB)
        self.pss: dict[int, list[float]] = {}           # the same, shared pages counted once (printed beside)
        self.own_rss: dict[int, list[float]] = {}       # the worker's process alone (its preparation process apart)
        self.scored_first_seen: dict[int, float] = {}   # site -> epoch first seen with a score row
        self.notes: list[str] = []
        # CPU seconds, load-independent where wall seconds are not (a shared machine): each worker's tree
        # (with its page preparation process), each PostgreSQL backend of the run's database, the bench process
        self.worker_cpu: dict[int, float] = {}
        self.backend_cpu: dict[int, float] = {}
        self.bench_cpu = 0.0

    # ---- set-up --------------------------------------------------------------------------------
    def plan_web(self):
        rss_before, started = tree_rss_mb(os.getpid()), time.process_time()
        self.web = generate_web(seed=self.args.seed, size=self.args.sites, pages_per_site=self.args.largest,
                                size_distribution="heavy-tailed", slow_delay_s=0.2, oversized_bytes=300_000)
        plan_s = time.process_time() - started
        self.seeds = [site.home_url() for site in self.web.sites if site.kind == "directory"]
        planned = sum(len(site.slugs) * len(site.languages) for site in self.web.sites)
        bilingual = sum(1 for site in self.web.sites if site.kind == "bilingual-sr-en")
        started = time.process_time()
        for site in self.web.sites[:200]:  # serve a first page of 200 sites: what serving costs
            self.web.respond("GET", site.home_url())
        serve_ms = (time.process_time() - started) / 200 * 1000
        print(f"heavy-tailed web: {len(self.web.sites):,} sites ({bilingual:,} bilingual, "
              f"{bilingual / len(self.web.sites):.1%}), ~{planned:,} pages, largest site {self.args.largest:,} slugs; "
              f"planned in {plan_s:.2f} s CPU, {tree_rss_mb(os.getpid()) - rss_before:.0f} MB; "
              f"a first page served in {serve_ms:.2f} ms CPU", flush=True)
        if planned < self.args.budget:
            self.notes.append(f"the web has ~{planned:,} pages, fewer than the budget")
        self.server = TestWebServer(self.web, port=0, max_log_entries=20_000).start()

    def env(self) -> dict:
        env = {k: v for k, v in os.environ.items() if k.upper() not in (
            "DATABASE_URL", "REDIS_URL", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY")}
        proxy = self.server.proxy_url
        env.update(HTTP_PROXY=proxy, http_proxy=proxy, NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost",
                   VAR_DIR=str(self.tmp), WARC_DIR=str(self.tmp / "warc"), LOG_LEVEL="WARNING",
                   PYTHONUNBUFFERED="1", DATABASE_URL=database_url(RUN_DB), REDIS_URL=REDIS_URL)
        if self.args.score_worker_prep is not None:
            env["CRAWLER_SCORE_WORKER_PREPARE_PROCESSES"] = str(self.args.score_worker_prep)
        return env

    def manage(self, args: list[str], env: dict, label: str, timeout: float = 120) -> None:
        proc = self.procs.start([PYTHON, "manage.py", *args], env, self.tmp / f"{label}.log")
        deadline = time.time() + timeout
        while not reap(proc) and time.time() < deadline:
            time.sleep(0.05)
        if proc.returncode != 0:
            self.procs.end(proc)
            raise SystemExit(f"manage.py {args[0]} failed ({proc.returncode}): {tail(proc.log_path)}")

    def set_up_databases(self) -> None:
        client = redis.Redis.from_url(REDIS_URL)
        others = [c for c in client.client_list() if c.get("db") == "7" and c.get("id") != str(client.client_id())]
        if others:
            raise SystemExit(f"Redis db 7 has {len(others)} other clients (a worker left running?): stop them first")
        client.flushdb()
        for name in (RUN_DB, BULK_DB, TEMPLATE_DB):
            drop_database(name)
        admin(f"CREATE DATABASE {TEMPLATE_DB}")
        self.manage(["migrate", "-v0"], {**self.env(), "DATABASE_URL": database_url(TEMPLATE_DB)}, "migrate")
        admin(f"CREATE DATABASE {RUN_DB} TEMPLATE {TEMPLATE_DB}")

    # ---- the crawl -----------------------------------------------------------------------------
    def crawl(self) -> None:
        from crawlweb.models import Crawl
        from frontier.models import SiteVerdict  # noqa: F401  (models loaded before the loop)

        start = ["crawl", "start", "--name", "scale bench", "--budget", str(self.args.budget), "--no-wait",
                 "--host-interval", str(self.args.host_interval), "--address-policy", "private",
                 "--parallel-steps", str(2 * WORKERS)]
        start += ["--strategy", self.args.strategy] if self.args.strategy else []
        start += ["--modules", self.args.modules] if self.args.modules else []
        self.manage(start + [part for url in self.seeds for part in ("--url", url)], self.env(), "crawl-start")
        self.crawl_id = Crawl.objects.order_by("-id").values_list("id", flat=True).first()
        self.started = time.time()
        self.workers = [self.procs.start([PYTHON, "manage.py", "rqworker", *self.queue_order(i)], self.env(),
                                         self.tmp / f"worker{i}.log") for i in range(WORKERS)]
        self.rss = {i: [] for i in range(WORKERS)}
        self.pss = {i: [] for i in range(WORKERS)}
        self.own_rss = {i: [] for i in range(WORKERS)}  # the worker's process alone, without its preparation process
        self.ended = None
        queues = redis.Redis.from_url(REDIS_URL)
        bench_cpu_start = time.process_time()
        next_line = self.started + self.args.interval
        line_pages, first_page_at = 0, None
        while True:
            time.sleep(1.0)
            now = time.time()
            state, pages = Crawl.objects.filter(pk=self.crawl_id).values_list("state", "pages_fetched").first()
            self.samples.append((now, pages))
            for number, proc in enumerate(self.workers):
                if not reap(proc):
                    self.worker_cpu[number] = tree_cpu_s(proc.pid)
                    if pages:  # memory from the first page on: start-up apart
                        self.rss[number].append(tree_rss_mb(proc.pid))
                        self.pss[number].append(tree_pss_mb(proc.pid))
                        self.own_rss[number].append(process_rss_mb(proc.pid))
            self.sample_backend_cpu()
            for site in measures.scored_site_ids(self.crawl_id):
                self.scored_first_seen.setdefault(site, now)
            if now >= next_line or state not in ("new", "running"):
                lengths = {q: queues.llen(f"rq:queue:{q}") for q in ("crawl", "score", "train")}
                rss = " ".join(f"{values[-1]:.0f}" for values in self.rss.values() if values)
                self.curve.append(f"{now - self.started:7.0f} {pages:8d} {(pages - line_pages) / max(1e-9, now - next_line + self.args.interval):8.1f}"
                                  f" {lengths['crawl']:6d} {lengths['score']:6d} {lengths['train']:6d}   {rss}")
                print("  " + self.curve[-1], flush=True)
                line_pages, next_line = pages, now + self.args.interval
            if all(proc.returncode is not None for proc in self.workers):
                self.notes.append("every worker exited: " + tail(self.workers[0].log_path, 3))
                break
            if state not in ("new", "running"):
                break
            if not pages and now - self.started >= STARTUP_LIMIT_S:
                Crawl.objects.filter(pk=self.crawl_id).update(state=Crawl.State.STOPPED)
                self.notes.append(f"no page within {STARTUP_LIMIT_S:.0f} s of the workers' start: stopped")
                break
            first_page_at = first_page_at or (now if pages else None)
            if first_page_at and now - first_page_at >= self.args.max_seconds:
                Crawl.objects.filter(pk=self.crawl_id).update(state=Crawl.State.STOPPED)
                self.notes.append(f"stopped at --max-seconds {self.args.max_seconds:.0f} after the first page")
                break
        self.ended = time.time()
        self.bench_cpu = time.process_time() - bench_cpu_start
        self.state = state
        self.drain(queues)

    def queue_order(self, worker: int) -> list[str]:
        """The queues worker ``worker`` takes, first to last. "split" (the advice of docs/scale.md): half
        the workers take crawl steps first, half scoring first, so neither waits for the other's burst;
        "score-first": every worker `score train crawl`, the order the README gave before."""
        if self.args.workers == "split" and worker % 2 == 0:
            return ["crawl", "score", "train"]
        return ["score", "train", "crawl"]

    def drain(self, queues) -> None:
        """Let the workers finish what the crawl queued (its end's scoring and verdicts), up to --drain."""
        from rq import Queue

        deadline = time.time() + self.args.drain
        while time.time() < deadline:
            busy = sum(queues.llen(f"rq:queue:{q}") + Queue(q, connection=queues).started_job_registry.count
                       for q in ("crawl", "score", "train"))
            if busy == 0:
                break
            time.sleep(0.5)
        self.drained_s = time.time() - self.ended
        for proc in self.workers:
            self.procs.end(proc, grace_s=3.0)  # SIGTERM: a worker finishes the job it is running
        self.workers_stopped = time.time()

    def sample_backend_cpu(self) -> None:
        """The CPU seconds so far of each PostgreSQL backend serving the run's database (each worker's
        connections live as long as the worker: their last reading is what they used)."""
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
            for (pid,) in cursor.fetchall():
                self.backend_cpu[pid] = max(self.backend_cpu.get(pid, 0.0), tree_cpu_s(pid))

    def report_cpu(self, pages: int) -> None:
        workers, database = sum(self.worker_cpu.values()), sum(self.backend_cpu.values())
        total = workers + database + self.bench_cpu
        per_page = 1000 / max(1, pages)
        print(f"CPU ms per page fetched (until the crawl ended; workers until stopped): workers with their page "
              f"preparation processes {workers * per_page:.1f}, PostgreSQL backends {database * per_page:.1f}, the "
              f"bench process (the test web's proxy, these samples) {self.bench_cpu * per_page:.1f}; total "
              f"{total * per_page:.1f} ms = at most {os.cpu_count() * 1000 / max(1e-9, total * per_page):.0f} pages/s "
              f"on {os.cpu_count()} cores")

    # ---- after ---------------------------------------------------------------------------------
    def verdict_lag(self) -> tuple[float, str]:
        first_pages = measures.first_page_times(self.crawl_id)
        decided = measures.verdict_times(self.crawl_id)
        seen = [site for site, at in first_pages.items() if at <= self.ended]
        during = sum(1 for site in seen if decided.get(site, float("inf")) <= self.ended)
        after = sum(1 for site in seen if site in decided) - during
        print(f"site verdicts of the {len(seen):,} sites with a page stored during the crawl: {during:,} stored "
              f"during it, {after:,} after it (within {self.drained_s:.0f} s of its end), {len(seen) - during - after:,} "
              f"none by the workers' stop (counted as waiting until then); sites with a pairing score seen during the "
              f"crawl: {sum(1 for at in self.scored_first_seen.values() if at <= self.ended):,}")
        if during:
            waits = measures.lags(decided, first_pages, self.ended, self.workers_stopped)
            evidence = measures.evidence_times(self.crawl_id, first_pages)
            after_evidence = [decided.get(site, self.workers_stopped) - evidence[site] for site in seen]
            reached = [evidence[site] - first_pages[site] for site in seen if evidence[site] > first_pages[site]]
            print(f"verdict lag from the first page: p50 {measures.percentile(waits, 0.5):.1f} s, p95 "
                  f"{measures.percentile(waits, 0.95):.1f} s; of it the crawl's own order: its first page in its second "
                  f"language came p50 {measures.percentile(reached, 0.5):.1f} s, p95 {measures.percentile(reached, 0.95):.1f} s "
                  f"after a bilingual site's first page ({len(reached):,} sites)")
            print(f"verdict lag after the evidence: p50 {measures.percentile(after_evidence, 0.5):.1f} s")
            return (measures.percentile(after_evidence, 0.95),
                    f"after the evidence: a bilingual verdict from the site's first page in its second language, "
                    f"any other from its first page; SiteVerdict rows, {len(after_evidence):,} sites")
        scored = measures.lags(self.scored_first_seen, first_pages, self.ended, self.ended)
        if self.scored_first_seen:
            return measures.percentile(scored, 0.95), f"no SiteVerdict during the crawl: first pairing score (SiteCredibility) seen, {len(scored):,} sites"
        return -1.0, "no site verdict nor score during the crawl"

    def report_bytes(self) -> tuple[float, float]:
        from django.db import connection

        from crawlweb.models import Page

        stored = Page.objects.filter(crawl_id=self.crawl_id).count()
        with connection.cursor() as cursor:
            size, tables = measures.database_bytes(cursor)
            ratio, disk, live = measures.bloat(cursor, tables[0][0])
            others = [(name, measures.bloat(cursor, name)[0]) for name, *_ in tables[1:6]]
        warc = sum(f.stat().st_size for f in (self.tmp / "warc").rglob("*") if f.is_file())
        print(f"database {size / 1e6:.1f} MB for {stored:,} stored pages = {size / 1024 / max(1, stored):.1f} KB/page; "
              f"WARC {warc / 1e6:.1f} MB = {warc / 1024 / max(1, stored):.1f} KB/page (on disk, not in the database)")
        print(f"{'table':34s} {'total MB':>9s} {'heap MB':>8s} {'index MB':>9s} {'toast MB':>9s} {'rows':>10s} {'B/page':>8s}")
        for name, total, heap, indexes, toast, rows in tables[:14]:
            print(f"{name:34s} {total / 1e6:9.1f} {heap / 1e6:8.1f} {indexes / 1e6:9.1f} {toast / 1e6:9.1f} "
                  f"{rows:10,d} {total / max(1, stored):8.0f}")
        print(f"largest table {tables[0][0]}: heap+TOAST {disk / 1e6:.1f} MB on disk, {live / 1e6:.1f} MB live = bloat {ratio:.2f}"
              f"; the next ones: " + ", ".join(f"{name} {value:.2f}" for name, value in others))
        return size / 1024 / max(1, stored), ratio

    def bulk(self) -> tuple[float, float]:
        admin(f"CREATE DATABASE {BULK_DB} TEMPLATE {TEMPLATE_DB}")
        env = {**self.env(), "DATABASE_URL": database_url(BULK_DB), "REDIS_URL": ""}
        print(f"frontier of millions: {self.args.targets:,} Targets, {self.args.bulk_pages:,} pages "
              f"(bulk-generated in {BULK_DB})", flush=True)
        done = subprocess.run([PYTHON, str(ROOT / "bench" / "support" / "scale_bulk.py"), "--targets",
                               str(self.args.targets), "--pages", str(self.args.bulk_pages),
                               "--rounds", "8" if self.args.quick else "30"]
                              + (["--no-explain"] if self.args.quick else []),
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
        lines = done.stdout.strip().splitlines()
        for line in lines[:-1]:
            print("  " + line)
        if done.returncode != 0 or not lines:
            print(f"  bulk measure failed ({done.returncode}): {done.stderr[-600:]}")
            return -1.0, -1.0
        figures = json.loads(lines[-1])
        return figures["lease_p95_ms"], figures["dashboard_p95_ms"]

    def tear_down(self) -> None:
        from django.apps import apps
        from django.db import connections

        try:
            self.procs.end_all()
        finally:
            if apps.ready:  # not when refused before Django was set up (another client on the Redis database)
                connections.close_all()
                if not self.args.keep_db:
                    for name in (RUN_DB, BULK_DB, TEMPLATE_DB):
                        drop_database(name)
                    redis.Redis.from_url(REDIS_URL).flushdb()
            if getattr(self, "server", None) is not None:
                self.server.stop()


def server_setting(name: str) -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting(%s)", [name])
        return cursor.fetchone()[0]


def job_share(run: ScaleRun) -> float:
    times = measures.job_times(REDIS_URL, ("crawl", "score", "train"), since=run.started - 5)
    total, scoring = times.seconds(), times.scoring_seconds()
    worker_s = WORKERS * (run.workers_stopped - run.started)
    print(f"worker seconds in jobs: {total:.0f} of {worker_s:.0f} s of {WORKERS} workers' time; scoring "
          f"(score queue, crawl steps run from it left out) {scoring:.0f} s = {scoring / max(1e-9, total):.2f} of job time, "
          f"{scoring / max(1e-9, worker_s):.2f} of worker time")
    for (queue, function), values in sorted(times.by_function.items(), key=lambda item: -sum(item[1])):
        print(f"  {queue:6s} {function:28s} {len(values):6d} jobs {sum(values):8.1f} s  mean {sum(values) / len(values):6.2f} s"
              f"  max {max(values):6.1f} s")
    print(f"site scorings (sites carried by score_sites jobs): {times.site_scorings}")
    pages, per_page = measures.cost_by_part(times.spans, run.samples)
    if per_page:  # flat rows: a kind of job costs the same a page early and late in the crawl
        print(f"job seconds per page fetched, by fifth of the pages ({pages[0]:,} each; ms a page; a job counts "
              "in the fifth it ended in), then the seconds of the jobs that ended after the crawl:")
        for function, values in sorted(per_page.items(), key=lambda item: -sum(item[1][:-1])):
            print(f"  {function:28s} " + " ".join(f"{value:7.2f}" for value in values[:-1]) + f"   {values[-1]:7.1f} s")
    return scoring / total if total else -1.0


def main() -> int:
    args = parse_args()
    # A `kill` (or SIGINT, which a shell's background job ignores) ends the run through tear_down: its
    # workers, Chromium and databases went on without it.
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    tmp = Path(tempfile.mkdtemp(prefix="scale-bench-"))
    run = ScaleRun(args, tmp)
    t0 = time.time()
    try:
        run.plan_web()
        run.set_up_databases()
        os.environ.update({"DJANGO_SETTINGS_MODULE": "crawlweb.settings", "DATABASE_URL": database_url(RUN_DB),
                           "REDIS_URL": REDIS_URL, "VAR_DIR": str(tmp)})
        import django
        django.setup()
        print(f"PostgreSQL autovacuum {server_setting('autovacuum')} (when off, the crawl steps analyze the "
              "tables that grew: crawlweb/services/table_statistics.py)")
        print(f"crawl: budget {args.budget:,}, strategy {args.strategy or 'default'}"
              f"{', modules ' + args.modules if args.modules else ''}, {WORKERS} workers, host interval "
              f"{args.host_interval:g} s, cap {args.max_seconds:.0f} s; load average {os.getloadavg()[0]:.1f} on "
              f"{os.cpu_count()} cores")
        print(f"  {'elapsed':>7s} {'pages':>8s} {'pages/s':>8s} {'crawlQ':>6s} {'scoreQ':>6s} {'trainQ':>6s}   worker RSS MB", flush=True)
        run.crawl()
        pages = run.samples[-1][1] if run.samples else 0
        first, last = measures.window_rates(run.samples) if pages else (0.0, 0.0)
        print(f"crawl {run.state}: {pages:,} pages in {run.ended - run.started:.0f} s; first 10 % {first:.1f} pages/s, "
              f"last 10 % {last:.1f} pages/s" + "".join(f"; {note}" for note in run.notes))
        share = job_share(run)
        run.report_cpu(pages)
        lag, lag_source = run.verdict_lag()
        print(f"verdict lag p95 {lag:.1f} s ({lag_source})")
        rss_max = max((max(values) for values in run.rss.values() if values), default=-1.0)
        for number, values in run.rss.items():
            if values:
                print(f"worker {number} RSS (with its page preparation process): first {values[0]:.0f} MB, "
                      f"last {values[-1]:.0f} MB, max {max(values):.0f} MB over {len(values)} samples; "
                      f"PSS (pages the tree shares counted once) max {max(run.pss[number], default=-1):.0f} MB; "
                      f"the worker's process alone: first {run.own_rss[number][0]:.0f} MB, "
                      f"last {run.own_rss[number][-1]:.0f} MB")
        kb_per_page, bloat_ratio = run.report_bytes()
        lease_p95, dashboard_p95 = (-1.0, -1.0) if args.no_bulk else run.bulk()
        print(f"total {time.time() - t0:.0f} s; load average {os.getloadavg()[0]:.1f}; the bench process (the test "
              f"web's proxy and these reads) {tree_rss_mb(os.getpid()):.0f} MB, its page-model cache "
              f"{run.web._models.pages:,} models; logs in {tmp}")
        print(f"RESULT pages={pages} pages_per_s_first={first:.2f} pages_per_s_last={last:.2f} "
              f"flat_ratio={last / first if first else 0:.3f} scoring_share={share:.3f} verdict_lag_p95_s={lag:.1f} "
              f"db_kb_per_page={kb_per_page:.2f} bloat_ratio={bloat_ratio:.2f} worker_rss_mb={rss_max:.1f} "
              f"lease_p95_ms_5m={lease_p95:.2f} dashboard_p95_ms_1m={dashboard_p95:.2f}")
    finally:
        run.tear_down()
    return 0


if __name__ == "__main__":
    sys.exit(main())
