"""The fault cases of Issue 18, run in the fault lab (bench/support/fault_lab.py): each injects one
fault into a crawl by real workers and reports whether the crawl survived it.

``run(quick)`` is what bench/hardening.py prints; tests/faults/ run the same cases one by one."""
from __future__ import annotations

import time

from bench.support.fault_lab import CaseResult, Lab, Run

DOWN_S = 2.0  # how long a restarted server stays down


def restart_redis(run: Run) -> None:
    """Redis goes away and comes back empty (no persistence): every queued job is gone."""
    run.lab.redis.stop()
    time.sleep(DOWN_S)
    run.lab.redis.start()


def restart_postgres(run: Run) -> None:
    """PostgreSQL stops (fast: open connections are cut) and starts again."""
    run.lab.pg.stop("fast")
    time.sleep(DOWN_S)
    run.lab.pg.start()


def redis_restart(lab: Lab) -> CaseResult:
    return lab.run_case("redis restarted mid-crawl", restart_redis)


def postgres_restart(lab: Lab) -> CaseResult:
    return lab.run_case("postgres restarted mid-crawl", restart_postgres)
