"""Crawl throughput on the test web: pages/s per worker, politeness share, Scrapy side by side, worker RSS.

Everything runs for real: the test web is served by this process (crawlweb.testweb, a loopback HTTP
proxy reached through HTTP_PROXY), crawls are started with `manage.py crawl start ... --no-wait`, and
fetched by `manage.py rqworker crawl --burst` subprocesses on PostgreSQL (a bench database created
from a migrated template, fresh for every run, dropped at the end) and Redis (db 14, flushed; another
free db when some other client, such as a worker left running, listens on db 14).
The embedded mode (SQLite in a temporary VAR_DIR, jobs in-process) runs `manage.py crawl start`
without REDIS_URL: it crawls in a thread and follows until the crawl is finished.

Runs (politeness "off" is crawl config host_interval 0, for loopback):
  pg-1w-off    PostgreSQL+Redis, 1 worker                    (the headline pages_per_s)
  scrapy-off   a plain Scrapy CrawlSpider (bench/support/scrapy_peer.py), same seeds, budget and politeness
  scrapy-off-2, pg-1w-off-2   both again, in that order (full mode): pages_per_s and vs_scrapy pool
               each pair (pages and wall time summed), since this machine's speed drifts from minute to minute
  pg-2w-off    PostgreSQL+Redis, 2 workers
  pg-1w-on     1 worker, host_interval 1 s, in-site only on a set of hosts few enough that the
               politeness bound (hosts / interval) is the limit, not the worker
  embedded     SQLite + in-process jobs
  full mode also: pg-1w-simple (rqworker --worker-class rq.SimpleWorker: no work horse forked per
  job), pg-1w-public (the default address policy, which resolves proxied host names locally) and
  scrapy-on (Scrapy on the politeness run's hosts).

Rates are pages (responses to page requests, robots.txt apart: Crawl.pages_fetched) over the wall
time from the worker's start (ours: rqworker launch; Scrapy and embedded: process launch) to the
crawl's end (Crawl.finished_at; Scrapy's spider_closed), so start-up counts on both sides. A run that
reaches its time cap first is stopped there and measured at the cap ("capped"). The politeness share
is the rate while crawling (first to last request of the run, from the test web's request log) over
the bound hosts / interval, hosts counted from that log; its request form counts robots.txt fetches,
which use the same per-host slots. Peak RSS of a worker is the largest sum of VmRSS over the rqworker
process and its descendants (its page preparation processes, CRAWLER_PREPARE_PROCESSES), polled from
/proc every 0.1 s, or wait4()'s ru_maxrss (the largest single process) if that is higher;
worker_rss_mb is the largest over the PostgreSQL runs. CPU time is wait4()'s, which includes the
preparation processes the worker reaped.

The crawl address policy is "private" by default: every request goes through the proxy, and the
other policies first resolve each proxied (fictional) host name through the system resolver, which
measures this machine's DNS rather than the crawler (see pg-1w-public).

    .venv/bin/python bench/crawl_throughput.py [--quick] [--seed S] [--address-policy P] [--worker-class C]

Last line: RESULT pages_per_s=... politeness_share=... vs_scrapy=... worker_rss_mb=... generate_s=...
(generate_s: CPU seconds to generate the bench's test web and serve its first page)
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from crawlweb.testweb import TestWebServer, generate_web
from bench.support.process_memory import tree_rss_mb  # noqa: E402

PYTHON = sys.executable
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_DB, PG_TEMPLATE = "crawl_bench_crawl", "crawl_bench_crawl_tpl"
REDIS_BASE, REDIS_DB = "redis://127.0.0.1:6379", 14
REDIS_FALLBACK_DBS = (12, 11, 10, 9, 8)
SPECIAL_HOST = "www.problemi.rs"
INTERVAL = 1.0  # host_interval of the politeness runs


@dataclass
class Spec:
    label: str
    mode: str
    kind: str            # pg | embedded | scrapy
    budget: int
    cap_s: float         # measured at this many seconds if the budget is not spent by then
    workers: int = 1
    polite: bool = False
    address_policy: str | None = None
    worker_class: str | None = None


@dataclass
class Profile:
    sites: int
    pages_per_site: int
    polite_sites: int
    polite_pages_per_host: int
    specs: list[Spec]


def profile_for(quick: bool) -> Profile:
    if quick:  # every run capped so the whole bench stays within a minute on 2 cores; one pair only
        return Profile(40, 20, 12, 5, [
            Spec("pg-1w-off", "PG+Redis, 1 worker, off", "pg", 400, 10),
            Spec("scrapy-off", "Scrapy, off", "scrapy", 400, 10),
            Spec("pg-2w-off", "PG+Redis, 2 workers, off", "pg", 400, 8, workers=2),
            Spec("pg-1w-on", f"PG+Redis, 1 worker, {INTERVAL:g} s", "pg", 0, 10, polite=True),
            Spec("embedded", "SQLite, in-process, off", "embedded", 300, 6),
        ])
    # Caps keep the full run to about ten minutes at the crawler's present speed; the no-fork
    # worker run is the one that must reach 10,000 pages (its memory is the one that accumulates).
    return Profile(200, 50, 20, 30, [
        Spec("pg-1w-off", "PG+Redis, 1 worker, off", "pg", 10_000, 120),
        Spec("scrapy-off", "Scrapy, off", "scrapy", 10_000, 180),
        Spec("scrapy-off-2", "Scrapy, off (again)", "scrapy", 10_000, 180),
        Spec("pg-1w-off-2", "PG+Redis, 1 worker, off (again)", "pg", 10_000, 120),
        Spec("pg-2w-off", "PG+Redis, 2 workers, off", "pg", 6_000, 60, workers=2),
        Spec("pg-1w-on", f"PG+Redis, 1 worker, {INTERVAL:g} s", "pg", 0, 60, polite=True),
        Spec("embedded", "SQLite, in-process, off", "embedded", 3_000, 60),
        Spec("pg-1w-simple", "PG+Redis, 1 SimpleWorker, off", "pg", 10_000, 330, worker_class="rq.SimpleWorker"),
        Spec("pg-1w-public", "PG+Redis, 1 worker, off, public", "pg", 3_000, 30, address_policy="public"),
        Spec("scrapy-on", f"Scrapy, {INTERVAL:g} s", "scrapy", 0, 60, polite=True),
    ])


@dataclass
class Run:
    spec: Spec
    pages: int = 0
    wall_s: float = 0.0
    crawl_s: float = 0.0          # first to last request of the run (test web log)
    requests: int = 0             # every request, robots.txt included
    hosts: int = 0
    rss_mb: float = 0.0
    cpu_s: float = 0.0            # CPU seconds of the crawling processes (workers; Scrapy; embedded)
    state: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.pages / self.wall_s if self.wall_s > 0 else 0.0

    @property
    def crawl_rate(self) -> float:
        return self.pages / self.crawl_s if self.crawl_s > 0 else 0.0


# --- processes -----------------------------------------------------------------------------
class Procs:
    """Every subprocess this bench starts, so that a failure anywhere still ends them all."""

    def __init__(self):
        self.live: list[subprocess.Popen] = []

    def start(self, args: list[str], env: dict, log_path: Path) -> subprocess.Popen:
        with open(log_path, "ab") as log:
            proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                    start_new_session=True)  # its own group: the worker and its horse
        proc.log_path, proc.maxrss_mb, proc.polled_mb, proc.cpu_s = log_path, 0.0, 0.0, 0.0
        self.live.append(proc)
        return proc

    def end(self, proc: subprocess.Popen, grace_s: float = 5.0) -> None:
        """SIGTERM the process group, SIGKILL after the grace time; always reaped."""
        for sig, wait_s in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 5.0)):
            if reap(proc):
                return
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                pass
            deadline = time.time() + wait_s
            while not reap(proc) and time.time() < deadline:
                time.sleep(0.05)

    def end_all(self) -> None:
        for proc in self.live:
            self.end(proc)
        self.live.clear()


def reap(proc: subprocess.Popen) -> bool:
    """Collect an exited child with wait4 (its ru_maxrss: the max over it and its reaped children)."""
    if proc.returncode is not None:
        return True
    pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
    if pid == 0:
        proc.polled_mb = max(proc.polled_mb, tree_rss_mb(proc.pid))
        return False
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.maxrss_mb = usage.ru_maxrss / 1024  # KiB on Linux
    proc.cpu_s = usage.ru_utime + usage.ru_stime  # CPU time of the worker (and any work horses)
    return True


def tail(path: Path, lines: int = 8) -> str:
    try:
        return " | ".join(path.read_text(errors="replace").splitlines()[-lines:])
    except FileNotFoundError:
        return ""


# --- databases -----------------------------------------------------------------------------
def admin(sql: str) -> None:
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(sql)


def drop_database(name: str) -> None:
    admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def database_url(name: str) -> str:
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def free_redis_db() -> tuple[int, str]:
    """Redis db 14, unless another client (a worker someone left running) is on it: that worker would
    take our crawl-step jobs off the shared queue names. Then the first fallback db nobody uses."""
    client = redis.Redis.from_url(f"{REDIS_BASE}/0")
    busy = {int(c["db"]) for c in client.client_list() if c.get("id") != str(client.client_id())}
    for db in (REDIS_DB, *REDIS_FALLBACK_DBS):
        if db not in busy and (db == REDIS_DB or redis.Redis.from_url(f"{REDIS_BASE}/{db}").dbsize() == 0):
            note = "" if db == REDIS_DB else f"Redis db {REDIS_DB} has other clients (a stray worker?): using db {db}"
            return db, note
    raise RuntimeError(f"Redis dbs {REDIS_DB} and {REDIS_FALLBACK_DBS} all have other clients")


def epoch(value) -> float | None:
    if value is None:
        return None
    if isinstance(value, str):  # SQLite
        value = datetime.fromisoformat(value)
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).timestamp()


class PgCrawl:
    """Reads and stops a crawl in the bench database (PostgreSQL or SQLite) directly."""

    def __init__(self, pg_url: str | None = None, sqlite_path: Path | None = None):
        self.sqlite = sqlite_path is not None
        self.conn = (sqlite3.connect(sqlite_path, timeout=30, isolation_level=None) if self.sqlite
                     else psycopg.connect(pg_url.replace("postgres://", "postgresql://"), autocommit=True))
        self.mark = "?" if self.sqlite else "%s"

    def status(self) -> tuple[str, int, float | None, str]:
        row = self.conn.execute("SELECT state, pages_fetched, finished_at, last_error FROM crawlweb_crawl"
                                " ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            return "", 0, None, ""
        return row[0], row[1], epoch(row[2]), row[3] or ""

    def stop(self) -> None:
        self.conn.execute(f"UPDATE crawlweb_crawl SET state = {self.mark} WHERE state = {self.mark}",
                          ("stopped", "running"))

    def close(self) -> None:
        self.conn.close()


# --- the bench -----------------------------------------------------------------------------
class Bench:
    def __init__(self, profile: Profile, tmp: Path, seed: int, address_policy: str, worker_class: str):
        self.profile, self.tmp = profile, tmp
        self.address_policy, self.worker_class = address_policy, worker_class
        self.procs = Procs()
        # The special site's slow page and oversized page made cheap: they are not throughput.
        started = time.thread_time()  # the test web's own cost, once: 200 sites x 50 pages in full
        self.web = generate_web(seed=seed, size=profile.sites, pages_per_site=profile.pages_per_site,
                                slow_delay_s=0.2, oversized_bytes=300_000)
        self.truth = self.web.truth()
        self.web.respond("GET", self.truth["seed_urls"][0])
        self.generate_s = time.thread_time() - started
        self.server = TestWebServer(self.web, port=0)
        self.sqlite_template = tmp / "sqlite-template"
        self.redis_url = f"{REDIS_BASE}/{REDIS_DB}"

    def base_env(self, var_dir: Path) -> dict:
        env = {k: v for k, v in os.environ.items() if k.upper() not in (
            "DATABASE_URL", "REDIS_URL", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY")}
        var_dir.mkdir(parents=True, exist_ok=True)
        proxy = self.server.proxy_url
        env.update(HTTP_PROXY=proxy, http_proxy=proxy, NO_PROXY="127.0.0.1,localhost",
                   no_proxy="127.0.0.1,localhost", VAR_DIR=str(var_dir), WARC_DIR=str(var_dir / "warc"),
                   LOG_LEVEL="WARNING", PYTHONUNBUFFERED="1")
        return env

    def manage(self, args: list[str], env: dict, log: Path, timeout: float) -> str:
        proc = self.procs.start([PYTHON, "manage.py", *args], env, log)
        deadline = time.time() + timeout
        while not reap(proc) and time.time() < deadline:
            time.sleep(0.05)
        if proc.returncode is None:
            self.procs.end(proc)
            raise RuntimeError(f"manage.py {args[0]} took over {timeout:.0f} s: {tail(log)}")
        if proc.returncode != 0:
            raise RuntimeError(f"manage.py {args[0]} failed ({proc.returncode}): {tail(log)}")
        return log.read_text(errors="replace")

    def set_up(self) -> None:
        # Bytecode for the project's modules, as an installed copy has (pip compiles Scrapy's):
        # with PYTHONDONTWRITEBYTECODE set, every worker start compiled 100 modules, 0.15 s.
        subprocess.run([PYTHON, "-m", "compileall", "-q", "crawlweb", "frontier", "evaluation"], cwd=ROOT, check=True)
        db, note = free_redis_db()
        self.redis_url = f"{REDIS_BASE}/{db}"
        if note:
            print(note, flush=True)
        self.server.start()
        drop_database(PG_DB)
        drop_database(PG_TEMPLATE)
        admin(f"CREATE DATABASE {PG_TEMPLATE}")
        pg_env = dict(self.base_env(self.tmp / "migrate"), DATABASE_URL=database_url(PG_TEMPLATE))
        sqlite_env = dict(self.base_env(self.sqlite_template), DATABASE_URL="")
        migrations = [self.procs.start([PYTHON, "manage.py", "migrate", "-v0"], env, self.tmp / f"migrate-{name}.log")
                      for name, env in (("pg", pg_env), ("sqlite", sqlite_env))]
        deadline = time.time() + 120
        # Reap every process on each pass (a list, not all()'s short circuit).
        while not all([reap(proc) for proc in migrations]) and time.time() < deadline:  # noqa: C419
            time.sleep(0.05)
        for proc in migrations:
            if proc.returncode != 0:
                raise RuntimeError(f"migrate failed ({proc.returncode}): {tail(proc.log_path)}")

    def tear_down(self) -> None:
        try:
            self.procs.end_all()
        finally:
            try:
                drop_database(PG_DB)
                drop_database(PG_TEMPLATE)
                redis.Redis.from_url(self.redis_url).flushdb()
            finally:
                self.server.stop()

    # ---- seeds ---------------------------------------------------------------------------
    def all_homes(self) -> list[str]:
        """Every site's home URLs, the special site's aside (links may still lead there)."""
        return [url for site in self.truth["sites"] if site["host"] != SPECIAL_HOST
                for url in site["home_urls"].values()]

    def polite_sites(self) -> list[dict]:
        """Content sites whose every host may be fetched at the interval (no 5xx robots.txt, which
        closes a host for minutes; no Crawl-delay), with pages enough to stay busy all run long."""
        chosen = [site for site in self.truth["sites"]
                  if site["kind"] not in ("directory", "special") and site["robots"] in ("none", "disallow")
                  and len(site["pages"]) >= 2 * self.profile.polite_pages_per_host * len(site["hosts"])]
        return chosen[: self.profile.polite_sites]

    def polite_plan(self) -> tuple[list[str], int]:
        sites = self.polite_sites()
        hosts = {host for site in sites for host in site["hosts"]}
        return [url for site in sites for url in site["home_urls"].values()], \
            len(hosts) * self.profile.polite_pages_per_host

    # ---- runs ----------------------------------------------------------------------------
    def run(self, spec: Spec) -> Run:
        seeds, budget = self.polite_plan() if spec.polite else (self.all_homes(), spec.budget)
        interval = INTERVAL if spec.polite else 0.0
        self.server.clear_log()
        run = {"pg": self.run_pg, "embedded": self.run_embedded, "scrapy": self.run_scrapy}[spec.kind](
            Run(spec), seeds, budget, interval)
        self._from_log(run)
        return run

    def _crawl_args(self, spec: Spec, seeds: list[str], budget: int, interval: float) -> list[str]:
        args = ["crawl", "start", "--name", spec.label, "--budget", str(budget), "--host-interval", str(interval),
                "--address-policy", spec.address_policy or self.address_policy,
                # K = workers x 2, so burst workers never find the queue empty between steps.
                "--parallel-steps", str(2 * spec.workers)]
        args += ["--in-site-only"] if spec.polite else []
        return args + [part for url in seeds for part in ("--url", url)]

    def run_pg(self, run: Run, seeds: list[str], budget: int, interval: float) -> Run:
        spec = run.spec
        drop_database(PG_DB)
        admin(f"CREATE DATABASE {PG_DB} TEMPLATE {PG_TEMPLATE}")
        redis.Redis.from_url(self.redis_url).flushdb()
        env = dict(self.base_env(self.tmp / spec.label), DATABASE_URL=database_url(PG_DB), REDIS_URL=self.redis_url)
        self.manage(self._crawl_args(spec, seeds, budget, interval) + ["--no-wait"], env,
                    self.tmp / f"{spec.label}-start.log", timeout=60)
        worker = [PYTHON, "manage.py", "rqworker", "crawl", "--burst"]
        worker_class = spec.worker_class or self.worker_class
        worker += ["--worker-class", worker_class] if worker_class else []
        started = time.time()
        procs = [self.procs.start(worker, env, self.tmp / f"{spec.label}-worker{i}.log")
                 for i in range(spec.workers)]
        self._watch(run, procs, PgCrawl(pg_url=database_url(PG_DB)), started)
        return run

    def run_embedded(self, run: Run, seeds: list[str], budget: int, interval: float) -> Run:
        spec = run.spec
        var_dir = self.tmp / spec.label
        var_dir.mkdir(parents=True, exist_ok=True)
        for name in ("crawl.sqlite3", "secret_key"):
            shutil.copy(self.sqlite_template / name, var_dir / name)
        env = dict(self.base_env(var_dir), DATABASE_URL="", JOBS_INPROCESS_MODE="thread")
        started = time.time()
        proc = self.procs.start([PYTHON, "manage.py", *self._crawl_args(spec, seeds, budget, interval)], env,
                                self.tmp / f"{spec.label}.log")
        self._watch(run, [proc], PgCrawl(sqlite_path=var_dir / "crawl.sqlite3"), started)
        return run

    def _watch(self, run: Run, procs: list[subprocess.Popen], crawl: PgCrawl, started: float) -> None:
        """Wait for the crawl to end (or the cap), stop it at the cap, let the processes exit."""
        cap_at, end = started + run.spec.cap_s, None
        try:
            while True:
                reaped = [reap(proc) for proc in procs]  # every one, for its rusage and RSS
                exited = all(reaped)
                try:
                    state, pages, finished_at, error = crawl.status()
                except sqlite3.OperationalError:  # the embedded crawl holds the write lock a moment
                    time.sleep(0.1)
                    continue
                if state and state != "running" and state != "new":
                    end = end or finished_at or time.time()
                    run.pages = run.pages or pages
                if exited and end is None:
                    run.pages, end = pages, time.time()
                    run.notes.append("every worker exited while the crawl was still running")
                if exited or (end and time.time() > end + 15):
                    break
                if end is None and time.time() >= cap_at:
                    run.pages, end = pages, time.time()  # measured here; the rest drains away
                    run.notes.append(f"capped at {run.spec.cap_s:.0f} s")
                    crawl.stop()
                time.sleep(0.1)
            run.state, run.wall_s = state, (end or time.time()) - started
            if error:
                run.notes.append(f"last_error: {error[:160]}")
        finally:
            crawl.close()
            capped = any(note.startswith("capped") for note in run.notes)
            for proc in procs:
                # A capped run is measured already: its workers need not finish their last step.
                self.procs.end(proc, grace_s=1.0 if capped else 5.0)
                if proc.returncode not in (0, -signal.SIGTERM, -signal.SIGKILL):
                    run.notes.append(f"exit {proc.returncode}: {tail(proc.log_path, 3)}")
                run.rss_mb = max(run.rss_mb, proc.maxrss_mb, proc.polled_mb)
                run.cpu_s += proc.cpu_s

    def run_scrapy(self, run: Run, seeds: list[str], budget: int, interval: float) -> Run:
        spec = run.spec
        seeds_file = self.tmp / f"{spec.label}-seeds.txt"
        seeds_file.write_text("\n".join(seeds) + "\n", encoding="utf-8")
        # CLOSESPIDER_PAGECOUNT counts robots.txt responses too; our budget counts pages only.
        robots_allowance = len({url.split("/")[2] for url in seeds})
        log = self.tmp / f"{spec.label}.log"
        started = time.time()  # like our worker's: from the process start, imports included
        proc = self.procs.start([PYTHON, str(ROOT / "bench" / "support" / "scrapy_peer.py"), "--seeds", str(seeds_file),
                                 "--budget", str(budget + robots_allowance), "--delay", str(interval)]
                                + (["--in-site-only"] if spec.polite else []),
                                self.base_env(self.tmp / spec.label), log)
        deadline = time.time() + spec.cap_s
        while not reap(proc) and time.time() < deadline:
            time.sleep(0.1)
        if proc.returncode is None:
            run.notes.append(f"capped at {spec.cap_s:.0f} s")
            self.procs.end(proc, grace_s=15)  # Scrapy shuts down cleanly on SIGTERM and still reports
        run.rss_mb = max(proc.maxrss_mb, proc.polled_mb)
        run.cpu_s = proc.cpu_s
        lines = [line for line in log.read_text(errors="replace").splitlines() if line.startswith("{")]
        if not lines:
            run.notes.append(f"no figures from Scrapy: {tail(log, 3)}")
            return run
        figures = json.loads(lines[-1])
        run.pages, run.state = figures["pages"], figures["reason"]
        run.wall_s = (figures["closed"] or time.time()) - started
        run.notes.append(f"imports {figures['started'] - started:.1f} s")
        return run

    def _from_log(self, run: Run) -> None:
        entries = self.server.requests
        if entries:
            run.requests, run.hosts = len(entries), len({e.host for e in entries})
            run.crawl_s = max(e.wall for e in entries) - min(e.wall for e in entries)


def pooled(runs: dict[str, Run], label: str) -> Run:
    """A run and its repeat ("-2") as one: pages and wall time summed. The pairs run in the order
    ours, Scrapy, Scrapy, ours, so that neither side gets the machine's better minute."""
    both = [run for name, run in runs.items() if name in (label, f"{label}-2")]
    return Run(both[0].spec, pages=sum(r.pages for r in both), wall_s=sum(r.wall_s for r in both))


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def report(runs: dict[str, Run], quick: bool) -> None:
    print()
    print(f"{'run':<13} {'mode':<32} {'pages':>6} {'wall s':>7} {'pages/s':>8} {'/worker':>8} "
          f"{'crawl s':>7} {'pages/s':>8} {'requests':>8} {'hosts':>5} {'peak RSS MB':>11} {'CPU ms/page':>11}  notes")
    for label, r in runs.items():
        print(f"{label:<13} {r.spec.mode:<32} {r.pages:>6} {r.wall_s:>7.1f} {r.rate:>8.1f} "
              f"{r.rate / r.spec.workers:>8.1f} {r.crawl_s:>7.1f} {r.crawl_rate:>8.1f} {r.requests:>8} "
              f"{r.hosts:>5} {r.rss_mb:>11.0f} {1000 * r.cpu_s / max(1, r.pages):>11.1f}  {r.state}{'; ' + '; '.join(r.notes) if r.notes else ''}")
    print("  wall s: worker (Scrapy, embedded: process) start to crawl end; crawl s: first to last request;"
          " peak RSS: a worker with its preparation processes (the largest worker);\n  CPU ms/page: CPU time of the crawling"
          " processes (start-up included; the test web proxy and the database servers apart) per page")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smaller web, capped runs (under 60 s)")
    parser.add_argument("--seed", type=int, default=7, help="test web seed")
    parser.add_argument("--address-policy", default="private", choices=("public", "loopback", "private"),
                        help="crawl address policy of the runs (see the module docstring)")
    parser.add_argument("--worker-class", default="", help="rqworker --worker-class for every PG run")
    parser.add_argument("--only", default="", help="comma-separated run labels (the four RESULT runs are needed)")
    parser.add_argument("--keep-logs", action="store_true", help="keep the temporary directory with every log")
    args = parser.parse_args()
    profile = profile_for(args.quick)
    if args.only:
        profile.specs = [spec for spec in profile.specs if spec.label in args.only.split(",")]
    tmp = Path(tempfile.mkdtemp(prefix="crawl-bench-"))
    bench = Bench(profile, tmp, args.seed, args.address_policy, args.worker_class)
    runs: dict[str, Run] = {}
    t0 = time.time()
    try:
        bench.set_up()
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; test web: {profile.sites} sites x {profile.pages_per_site} pages, {len(bench.all_homes())} seed "
              f"homes, generated in {bench.generate_s:.2f} s of CPU (target < 2 s for 200 x 50); proxy {bench.server.proxy_url}; logs in {tmp}", flush=True)
        for spec in profile.specs:
            r = runs[spec.label] = bench.run(spec)
            print(f"  [{time.time() - t0:4.0f} s] {spec.label:<13} {r.pages:>6} pages in {r.wall_s:6.1f} s = {r.rate:6.1f} pages/s"
                  f"  ({r.state}{'; ' + '; '.join(r.notes) if r.notes else ''})", flush=True)
    finally:
        bench.tear_down()

    report(runs, args.quick)
    if not all(label in runs for label in ("pg-1w-off", "scrapy-off", "pg-1w-on")):
        print(f"logs in {tmp}")
        return 0
    ours, scrapy, on = pooled(runs, "pg-1w-off"), pooled(runs, "scrapy-off"), runs["pg-1w-on"]
    bound = on.hosts / INTERVAL
    share = on.crawl_rate / bound if bound else 0.0
    vs_scrapy = ours.rate / scrapy.rate if scrapy.rate else 0.0
    print(f"politeness: {on.hosts} hosts / {INTERVAL:g} s = bound {bound:.1f} requests/s; {on.crawl_rate:.1f} pages/s"
          f" while crawling = share {share:.3f} (robots.txt requests counted too: "
          f"{on.requests / on.crawl_s / bound if on.crawl_s and bound else 0:.3f}; from worker start: "
          f"{on.rate / bound if bound else 0:.3f})")
    if "scrapy-on" in runs:
        s_on = runs["scrapy-on"]
        print(f"  Scrapy, same hosts and interval: {s_on.crawl_rate:.1f} pages/s while crawling = share "
              f"{s_on.crawl_rate / bound if bound else 0:.3f}")
    pairs = ("; pages over wall time of both runs each, run ours, Scrapy, Scrapy, ours"
             if "pg-1w-off-2" in runs and "scrapy-off-2" in runs else "")
    print(f"vs Scrapy (politeness off, 1 worker on PG+Redis{pairs}): {ours.rate:.1f} / {scrapy.rate:.1f}"
          f" = {vs_scrapy:.3f}")
    # The worst worker of the PostgreSQL runs; the longest crawl says how far memory was exercised.
    pg_runs = [r for r in runs.values() if r.spec.kind == "pg"]
    rss = max(r.rss_mb for r in pg_runs)
    longest = max(pg_runs, key=lambda r: r.pages)
    print(f"worker peak RSS: {rss:.0f} MB (largest of the PostgreSQL runs; the longest, {longest.spec.label}, "
          f"fetched {longest.pages} pages: {longest.rss_mb:.0f} MB"
          + (")" if longest.pages >= 10_000 else "; short of the 10,000-page target crawl)"))
    print(f"targets: >= 50 pages/s per worker {verdict(ours.rate >= 50)}; >= 0.9 of the politeness bound "
          f"{verdict(share >= 0.9)}; not slower than Scrapy {verdict(vs_scrapy >= 1)}; worker RSS < 500 MB "
          f"{verdict(rss < 500)}")
    print(f"total {time.time() - t0:.0f} s; load average {os.getloadavg()[0]:.1f} (other processes share the cores)")
    print(f"RESULT pages_per_s={ours.rate:.2f} politeness_share={share:.3f} vs_scrapy={vs_scrapy:.3f} "
          f"worker_rss_mb={rss:.1f} generate_s={bench.generate_s:.3f}")
    if not args.keep_logs:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
