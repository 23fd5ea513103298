"""The web fuzzer's long run, for bench/hardening.py: ``run(cases, seconds) -> dict``.

A child process (this file with ``--child``) gets a temporary SQLite database of its own (as
hostile_cases.py's does), serves the test web with its fuzz hosts on 127.0.0.1 and crawls webs that
Hypothesis draws (crawlweb/testweb/fuzz_strategies.py: here up to BENCH_HOSTS hosts each, so one crawl
fetches many cases side by side) until ``cases`` fuzz answers were asked for or ``seconds`` have
passed. Each crawl is held to the property of bench/support/fuzz_crawl.py.

Figures: fuzz_cases (distinct fuzz answers the crawls asked for), crawls (how many ran), crawls_stopped
(left running without progress, raised, or ended with Targets leased or pending for no reason),
problems (content stored twice, Targets done/failed without a recorded end), lost (Targets of either
kind), peak_rss_mb (the crawl process and its page-preparation process).

    .venv/bin/python bench/support/fuzz_cases.py [CASES [SECONDS [PROCESSES]]]   # prints the dict as JSON
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.support.fuzz_crawl import FUZZ_SETTINGS  # noqa: E402
from bench.support.process_memory import largest_peak_rss_mb  # noqa: E402

BENCH_HOSTS, BENCH_PAGES = (16, 32), (2, 5)  # at least, at most
BENCH_BUDGET = 400  # above the pages of the largest web: the crawl ends by emptying its frontier
EXAMPLES_PER_ROUND = 5
CRAWL_S = 15  # about how long one crawl of a bench web takes: a run ends within its seconds
# The bench's crawls fetch many hosts at once (FUZZ_SETTINGS fetch a test's few hosts).
BENCH_SETTINGS = {**FUZZ_SETTINGS, "CRAWLER_BATCH_SIZE": 64, "CRAWLER_CONCURRENCY": 64}


def run(cases: int, seconds: float, processes: int = 1) -> dict:
    """Crawl fuzz webs in ``processes`` children side by side (their crawls mostly wait on the network)
    until together they asked for ``cases`` answers, or ``seconds`` passed; their figures summed."""
    shares = [cases // processes + (i < cases % processes) for i in range(processes)]
    with ThreadPoolExecutor(max_workers=processes) as pool:
        parts = list(pool.map(lambda i: _run_child(i, shares[i], seconds), range(processes)))
    summed = {key: sum(part[key] for part in parts) for key in ("fuzz_cases", "crawls", "crawls_stopped",
                                                                  "problems", "lost")}
    return {**summed, "peak_rss_mb": max(part["peak_rss_mb"] for part in parts),
            "examples": [example for part in parts for example in part["examples"]][:10],
            "seconds_per_crawl": round(sum(p["seconds_per_crawl"] * p["crawls"] for p in parts)
                                       / max(1, summed["crawls"]), 2)}


def _run_child(index: int, cases: int, seconds: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="fuzz-bench-") as var_dir:
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
        env.update({name: str(int(value) if isinstance(value, bool) else value) for name, value in BENCH_SETTINGS.items()})
        env.update(DATABASE_URL="", VAR_DIR=var_dir, JOBS_INPROCESS_MODE="sync", PYTHONPATH=str(ROOT),
                   NO_PROXY="127.0.0.1,localhost,::1", no_proxy="127.0.0.1,localhost,::1")
        args = [sys.executable, __file__, "--child", str(cases), str(seconds), str(index)]
        # A child that hangs past its time is itself a stopped crawl: the timeout says so loudly.
        done = subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True, timeout=seconds + 300)
    if done.returncode != 0:
        raise RuntimeError(f"the fuzz crawl process failed ({done.returncode}): {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _child(cases: int, seconds: float, index: int) -> dict:
    deadline = time.monotonic() + seconds - CRAWL_S  # no crawl starts after it (set-up counts in the time)
    os.environ["DJANGO_SETTINGS_MODULE"] = "crawlweb.settings"
    import logging

    import django

    django.setup()
    logging.disable(logging.CRITICAL)
    from django.core.management import call_command
    from hypothesis import HealthCheck, Phase, given, seed, settings

    from bench.support.fuzz_crawl import crawl_fuzz_web
    from crawlweb.testweb import TestWebServer, generate_web
    from crawlweb.testweb.fuzz_strategies import fuzz_webs

    call_command("migrate", verbosity=0)
    results = []
    with TestWebServer(generate_web(seed=1, size=2, pages_per_site=2)) as server:
        os.environ["HTTP_PROXY"] = os.environ["http_proxy"] = server.proxy_url

        def crawl(web):
            if not results or (sum(r.cases_served for r in results) < cases and time.monotonic() < deadline):
                server.clear_log()
                results.append(crawl_fuzz_web(server, web, budget=BENCH_BUDGET))

        round_number = 0
        while not results or (sum(r.cases_served for r in results) < cases and time.monotonic() < deadline):
            round_number += 1  # a seed per child and round: the run is repeatable, each round draws new webs
            check = seed(index * 1_000_000 + round_number)(settings(max_examples=EXAMPLES_PER_ROUND, deadline=None, database=None,
                                                phases=[Phase.generate], suppress_health_check=list(HealthCheck))(
                given(fuzz_webs(BENCH_HOSTS[1], BENCH_PAGES[1], min_hosts=BENCH_HOSTS[0],
                                                 min_pages=BENCH_PAGES[0]))(crawl)))
            check()
    stopped = [r for r in results if r.stopped]
    return {"fuzz_cases": sum(r.cases_served for r in results), "crawls": len(results),
            "crawls_stopped": len(stopped), "problems": sum(len(r.problems) for r in results),
            "lost": sum(r.lost for r in results), "peak_rss_mb": round(largest_peak_rss_mb(os.getpid()), 1),
            "examples": [r.stopped[:3] + r.problems[:3] for r in results if not r.ok][:10],
            "seconds_per_crawl": round(sum(r.seconds for r in results) / max(1, len(results)), 2)}


def main() -> None:
    if len(sys.argv) >= 5 and sys.argv[1] == "--child":
        print(json.dumps(_child(int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]))))
        return
    cases = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 45
    processes = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    started = time.monotonic()
    print(json.dumps(run(cases, seconds, processes)), f"({time.monotonic() - started:.1f} s)")


if __name__ == "__main__":
    main()
