"""The fault lab: a crawl of the test web run by real RQ worker processes on a private Redis and a
private PostgreSQL cluster (bench/support/private_services.py), with a fault injected mid-crawl,
then the stored rows and the test web's request log checked.

Used by tests/faults/ (which assert the figures) and bench/hardening.py (which prints them). This
process never loads Django: workers and `manage.py crawl start` are subprocesses, and the rows are
read with plain SQL, so the lab measures what a deployment would see.

A worker that exits is started again, as the supervisor the README asks for would do; each case
says how often that happened.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import psycopg
import redis

from bench.support.private_services import PrivatePostgres, PrivateRedis
from bench.support.process_memory import largest_peak_rss_mb
from crawlweb.testweb import TestWebServer, generate_web

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
TEMPLATE = "lab_template"
# A live worker's step stores what it fetched within a lease even on a loaded machine (3 s was too short
# with the test shards sharing two cores: a step's pages were fetched again by the other worker).
LEASE_SECONDS = 6
INTERVAL = 0.3  # per host: a crawl of ~100 pages on ~15 hosts lasts long enough to be hit mid-way
SITES = 8  # some 80 pages on 9 hosts (quick: 4 sites, 40 pages)
QUICK_SITES = 4


@dataclass
class CaseResult:
    """What one fault did to one crawl, as the rows and the server's log tell it."""

    name: str
    survived: bool = False
    state: str = ""
    targets: int = 0
    fetched: int = 0          # Targets answered (done or failed)
    lost: int = 0             # Targets left pending or leased, plus reachable pages never fetched
    stored_twice: int = 0     # URLs with more than one Page row
    requested_twice: int = 0  # page URLs the test web served more than once
    worker_restarts: int = 0
    peak_rss_mb: float = 0.0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)  # any problem: not survived
    details: dict = field(default_factory=dict)        # what the case saw, for the report


class Worker:
    """One `manage.py rqworker` process and its peak memory (the largest of itself and its children)."""

    def __init__(self, name: str, env: dict, log: Path):
        self.name = name
        with open(log, "ab") as out:
            self.proc = subprocess.Popen([PYTHON, "manage.py", "rqworker", "score", "train", "crawl", "--name", name],
                                         cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        self.peak_rss_mb = 0.0

    def poll_rss(self) -> None:
        """peak_rss_mb as the hostile bench and the fuzzer define it (process_memory.largest_peak_rss_mb);
        polled, since a fault may kill the worker before the end. Each process's own peak only grows, so a
        poll misses nothing of a process still alive at the next one."""
        self.peak_rss_mb = max(self.peak_rss_mb, largest_peak_rss_mb(self.proc.pid))

    def end(self, grace_s: float = 8.0) -> None:
        for sig, wait_s in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 5.0)):
            if self.proc.poll() is not None:
                return
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                return
            try:
                self.proc.wait(wait_s)
            except subprocess.TimeoutExpired:
                continue


class Lab:
    """Private Redis and PostgreSQL, the test web, and a migrated template database. A context manager."""

    def __init__(self, seed: int = 3, sites: int = SITES, keep_logs: bool = False):
        self.keep_logs = keep_logs  # the workers' logs and databases' files stay in self.tmp
        self.tmp = Path(tempfile.mkdtemp(prefix="fault-lab-"))
        self.pg = PrivatePostgres(Path(tempfile.mkdtemp(prefix="fault-lab-pg-")))
        self.redis = PrivateRedis(self.tmp / "redis")
        # the slow page outlasts a one-second lease by 9 s: another worker must lease it again before the
        # first fetch ends, or the lease-expiry case sees no fault to survive. At 4 s that window was too
        # short under load (CI's six test groups on two cores): no step leased it in time
        self.web = generate_web(seed=seed, size=20, pages_per_site=6, slow_delay_s=10.0, oversized_bytes=100_000)
        self.server = TestWebServer(self.web, port=0)
        self.sites = [site for site in self.web.truth()["sites"]
                      if site["robots"] == "none" and site["kind"] not in ("directory", "special")][:sites]
        self.cases = 0
        self.fault_at = 15 if sites > QUICK_SITES else 5  # pages fetched when a fault hits, by default

    def __enter__(self) -> "Lab":
        try:
            self.server.start()
            self.redis.start()
            self.pg.init()
            self.pg.admin(f"CREATE DATABASE {TEMPLATE}")
            self.manage(["migrate", "-v0"], self.env(TEMPLATE), timeout=180)
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.redis.close()
            self.pg.close()
        finally:
            self.server.stop()
            if not self.keep_logs:
                shutil.rmtree(self.tmp, ignore_errors=True)

    # ---- processes ------------------------------------------------------------------------
    def env(self, database: str, **extra: str) -> dict:
        env = {k: v for k, v in os.environ.items() if k.upper() not in (
            "DATABASE_URL", "REDIS_URL", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY")}
        proxy = self.server.proxy_url
        var_dir = self.tmp / database
        var_dir.mkdir(exist_ok=True)
        env.update(DATABASE_URL=self.pg.url(database), REDIS_URL=self.redis.url, HTTP_PROXY=proxy, http_proxy=proxy,
                   NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost", VAR_DIR=str(var_dir),
                   WARC_DIR=str(var_dir / "warc"), LOG_LEVEL="WARNING", PYTHONUNBUFFERED="1",
                   CRAWLER_HOST_INTERVAL=str(INTERVAL), CRAWLER_LEASE_SECONDS=str(LEASE_SECONDS),
                   CRAWLER_STEP_SECONDS="1", CRAWLER_PREPARE_PROCESSES="0",
                   CRAWLER_IDLE_FINISH_SECONDS=str(LEASE_SECONDS + 1), CRAWLER_CHAIN_WATCH_SECONDS="1",
                   PAIRS_DEEP_CHECKS="0")
        env.update(extra)
        return env

    def manage(self, args: list[str], env: dict, timeout: float) -> str:
        done = subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(f"manage.py {args[0]} failed: {(done.stderr or done.stdout).strip()[-400:]}")
        return done.stdout

    def seeds(self) -> list[str]:
        return [url for site in self.sites for url in site["home_urls"].values()]

    def reachable(self) -> set[str]:
        """The chosen sites' pages a crawl kept in them must reach (orphans are linked from nowhere)."""
        return {url for site in self.sites for url in site["pages"]} - {
            url for site in self.sites for url in site["orphan_pages"]}

    # ---- a case ---------------------------------------------------------------------------
    def run_case(self, name: str, fault: Callable[["Run"], None], *, at_pages: int | None = None, workers: int = 2,
                 time_limit: float = 90, extra_urls: tuple[str, ...] = (),
                 after: Callable[["Run"], None] | None = None, **env_extra: str) -> CaseResult:
        """Crawl the chosen sites with ``workers`` workers, call ``fault`` once ``at_pages`` pages are
        fetched, keep the workers alive until the crawl ends (or ``time_limit``), then check the rows
        (and call ``after`` for the case's own checks)."""
        self.cases += 1
        database = f"case{self.cases}"
        self.pg.admin(f"CREATE DATABASE {database} TEMPLATE {TEMPLATE}")
        redis.Redis.from_url(self.redis.url).flushdb()
        self.server.clear_log()
        started = time.monotonic()
        run = Run(self, CaseResult(name), self.env(database, **env_extra), started + time_limit)
        try:
            args = ["crawl", "start", "--no-wait", "--name", name, "--budget", "2000", "--in-site-only",
                    "--host-interval", str(INTERVAL), "--parallel-steps", str(workers), "--address-policy", "private"]
            for _ in range(workers):  # they load Django while the crawl is started
                run.add_worker()
            urls = self.seeds() + list(extra_urls)
            self.manage(args + [part for url in urls for part in ("--url", url)], run.env, timeout=60)
            at = self.fault_at if at_pages is None else at_pages
            run.watch(lambda: run.pages_fetched() >= at, "the crawl reached its fault point")
            run.result.details["fault_at_s"] = round(time.monotonic() - started, 1)
            fault(run)
            run.watch(lambda: run.crawl_state() not in ("running", "paused"), "the crawl ended")
        except (RuntimeError, psycopg.Error) as error:
            run.result.problems.append(str(error)[:300])
        finally:
            run.end_workers()
        run.result.seconds = time.monotonic() - started
        run.check(self.reachable(), self.server.requests)
        if after is not None:
            after(run)
            run.result.survived = run.result.survived and not run.result.problems
        return run.result


class Run:
    """One case's crawl: its workers (restarted when they exit) and its database."""

    def __init__(self, lab: Lab, result: CaseResult, env: dict, deadline: float):
        self.lab, self.result, self.env, self.deadline = lab, result, env, deadline
        self.workers: list[Worker] = []
        self.database_url = env["DATABASE_URL"].replace("postgres://", "postgresql://")

    def add_worker(self) -> None:
        name = f"lab-{os.getpid()}-{time.time_ns() % 10**9}"
        self.workers.append(Worker(name, self.env, self.lab.tmp / f"{name}.log"))

    def supervise(self) -> None:
        """Start a new worker for every one that exited, as a supervisor would."""
        for worker in list(self.workers):
            worker.poll_rss()
            if worker.proc.poll() is not None:
                self.workers.remove(worker)
                self.result.worker_restarts += 1
                self.result.peak_rss_mb = max(self.result.peak_rss_mb, worker.peak_rss_mb)
                self.add_worker()

    def watch(self, condition: Callable[[], bool], what: str) -> None:
        while True:
            self.supervise()
            try:
                if condition():
                    return
            except psycopg.OperationalError:
                pass  # the database is down (the fault under test): ask again
            if time.monotonic() > self.deadline:
                raise RuntimeError(f"timed out waiting until {what}")
            time.sleep(0.1)

    def end_workers(self) -> None:
        for worker in self.workers:
            worker.end()
            self.result.peak_rss_mb = max(self.result.peak_rss_mb, worker.peak_rss_mb)

    # ---- rows -----------------------------------------------------------------------------
    def query(self, sql: str, *params) -> list[tuple]:
        with psycopg.connect(self.database_url, autocommit=True, connect_timeout=2) as conn:
            return conn.execute(sql, params).fetchall()

    def crawl_state(self) -> str:
        rows = self.query("SELECT state FROM crawlweb_crawl ORDER BY id DESC LIMIT 1")
        return rows[0][0] if rows else ""

    def pages_fetched(self) -> int:
        rows = self.query("SELECT pages_fetched FROM crawlweb_crawl ORDER BY id DESC LIMIT 1")
        return rows[0][0] if rows else 0

    def check(self, reachable: set[str], requests: list) -> None:
        """Fill in the result from the rows and the request log; survived when nothing is lost or doubled."""
        result = self.result
        try:
            result.state = self.crawl_state()
            by_state = Counter(dict(self.query("SELECT state, count(*) FROM frontier_target GROUP BY state")))
            done = {url for (url,) in self.query("SELECT url FROM frontier_target WHERE state = 'done'")}
            result.stored_twice = self.query(
                "SELECT count(*) FROM (SELECT url FROM crawlweb_page GROUP BY url HAVING count(*) > 1) twice")[0][0]
        except psycopg.Error as error:
            result.problems.append(f"rows unreadable: {error}"[:300])
            return
        result.targets = sum(by_state.values())
        result.fetched = by_state["done"] + by_state["failed"]
        open_targets = by_state["pending"] + by_state["leased"]
        never = reachable - done
        result.lost = open_targets + len(never)
        if never:
            result.problems.append(f"{len(never)} reachable pages never fetched, e.g. {sorted(never)[0]}")
        served = Counter(entry.url for entry in requests
                         if entry.method == "GET" and not entry.url.endswith("/robots.txt"))
        result.requested_twice = sum(1 for count in served.values() if count > 1)
        result.details.update(pages_counted=self.pages_fetched(), page_requests=sum(served.values()))
        if result.state != "finished":
            result.problems.append(f"the crawl ended {result.state or 'nowhere'}, not finished")
        if result.stored_twice:
            result.problems.append(f"{result.stored_twice} URLs stored as two Pages")
        result.survived = not result.problems and result.lost == 0
