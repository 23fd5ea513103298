"""Hardening figures: faults survived by a crawl of real workers (bench/support/fault_cases.py) and
hostile inputs handled (bench/support/hostile_cases.py), in one table and one RESULT line.

    .venv/bin/python bench/hardening.py [--quick]

Fault cases run on a private Redis and a private PostgreSQL cluster on free loopback ports (the
shared servers are never restarted); the disk case mounts a tmpfs, so it needs root. --quick runs
the Redis restart and the duplicate delivery of jobs only (and the hostile cases' quick subset).
Both parts run side by side.
The exit status is 0 whatever the figures: tests/faults/ assert the targets (every fault survived,
nothing lost, no script run, no refused address reached, peak worker memory under 500 MB).

Last line: RESULT faults_survived=<int> faults_total=<int> bad_inputs=<int> lost=<int> xss_executed=<int>
ssrf=<int> peak_rss_mb=<float>  (lost is the sum of both parts, peak_rss_mb the larger)
"""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.support import fault_cases, hostile_cases  # noqa: E402


def result_line(faults: dict, hostile: dict) -> str:
    return (f"RESULT faults_survived={faults['faults_survived']} faults_total={faults['faults_total']} "
            f"bad_inputs={hostile['bad_inputs']} lost={faults['lost'] + hostile['lost']} "
            f"xss_executed={hostile['xss_executed']} ssrf={hostile['ssrf']} "
            f"peak_rss_mb={max(faults['peak_rss_mb'], hostile['peak_rss_mb']):.1f}")


def fault_table(faults: dict) -> list[str]:
    lines = [f"{'fault':<32} {'survived':>8} {'lost':>5} {'fetched':>7} {'twice':>5} {'restarts':>8} "
             f"{'rss_mb':>7} {'s':>5}  notes"]
    for case in faults["cases"]:
        notes = "; ".join(case["problems"]) or ", ".join(f"{k}={v}" for k, v in case["details"].items())
        lines.append(f"{case['name']:<32} {'yes' if case['survived'] else 'NO':>8} {case['lost']:>5} "
                     f"{case['fetched']:>7} {case['requested_twice']:>5} {case['worker_restarts']:>8} "
                     f"{case['peak_rss_mb']:>7.1f} {case['seconds']:>5.1f}  {notes}")
    return lines


def hostile_table(hostile: dict) -> list[str]:
    return ["hostile cases:"] + [f"  {'ok  ' if case['ok'] else 'FAIL'} {case['name']}: {case['detail']}"
                                 for case in hostile["cases"]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a subset, under 60 s")
    args = parser.parse_args()
    started = time.monotonic()
    # The two parts share nothing (the faults' private servers, the hostile part's child process and
    # servers of its own) and mostly wait on processes, so they run side by side.
    with ThreadPoolExecutor(max_workers=1) as pool:
        hostile_run = pool.submit(hostile_cases.run, args.quick)
        faults = fault_cases.run(args.quick)
        hostile = hostile_run.result()
    print("\n".join(fault_table(faults)))
    print("\n".join(hostile_table(hostile)))
    print(f"{time.monotonic() - started:.1f} s")
    print(result_line(faults, hostile))
    return 0


if __name__ == "__main__":
    sys.exit(main())
