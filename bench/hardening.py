"""Hardening figures: faults survived by a crawl of real workers (bench/support/fault_cases.py) and
hostile inputs handled (bench/support/hostile_cases.py) and the web fuzzer's crawls (bench/support/fuzz_cases.py),
in one table and one RESULT line.

    .venv/bin/python bench/hardening.py [--quick] [--fuzz-cases N]

Fault cases run on a private Redis and a private PostgreSQL cluster on free loopback ports (the
shared servers are never restarted); the disk case mounts a tmpfs, so it needs root. --quick runs
the Redis restart and the duplicate delivery of jobs only (and the hostile cases' quick subset).
The fuzzer crawls webs of generated hostile answers until N of them were asked for (default 10,000;
300 or 40 s with --quick). The three parts run side by side.
The exit status is 0 whatever the figures: tests/faults/ assert the targets (every fault survived,
nothing lost, no script run, no refused address reached, peak worker memory under 500 MB).

Last line: RESULT faults_survived=<int> faults_total=<int> bad_inputs=<int> lost=<int> xss_executed=<int>
ssrf=<int> peak_rss_mb=<float> fuzz_cases=<int> crawls_stopped=<int>  (lost is the sum of the three parts, each
counting Targets that end neither fetched nor with their error recorded; peak_rss_mb the largest; fuzz_cases
the fuzz answers the crawls asked for; crawls_stopped the fuzz crawls left running without progress or
ended early by one case)
"""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.support import fault_cases, fuzz_cases, hostile_cases  # noqa: E402

QUICK_FUZZ = (300, 40.0, 2)  # cases, seconds, processes
FULL_FUZZ = (10_000, 7200.0, 3)


def result_line(faults: dict, hostile: dict, fuzz: dict) -> str:
    return (f"RESULT faults_survived={faults['faults_survived']} faults_total={faults['faults_total']} "
            f"bad_inputs={hostile['bad_inputs']} lost={faults['lost'] + hostile['lost'] + fuzz['lost']} "
            f"xss_executed={hostile['xss_executed']} ssrf={hostile['ssrf']} "
            f"peak_rss_mb={max(faults['peak_rss_mb'], hostile['peak_rss_mb'], fuzz['peak_rss_mb']):.1f} "
            f"fuzz_cases={fuzz['fuzz_cases']} crawls_stopped={fuzz['crawls_stopped']}")


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


def fuzz_table(fuzz: dict) -> list[str]:
    lines = [f"web fuzzer: {fuzz['fuzz_cases']} cases in {fuzz['crawls']} crawls "
             f"({fuzz['seconds_per_crawl']} s each), {fuzz['crawls_stopped']} stopped, "
             f"{fuzz['problems']} problems, {fuzz['lost']} Targets lost, peak {fuzz['peak_rss_mb']} MB"]
    return lines + [f"  FAIL {'; '.join(example)}" for example in fuzz["examples"]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a subset, under 60 s")
    parser.add_argument("--fuzz-cases", type=int, default=None,
                        help=f"fuzz answers to ask for (default {FULL_FUZZ[0]}, {QUICK_FUZZ[0]} with --quick)")
    args = parser.parse_args()
    cases, seconds, processes = QUICK_FUZZ if args.quick else FULL_FUZZ
    if args.fuzz_cases is not None:  # a count of one's own: as long as it takes (within FULL_FUZZ's time)
        cases, seconds = args.fuzz_cases, max(seconds, FULL_FUZZ[1])
    started = time.monotonic()
    # The parts share nothing (the faults' private servers, the hostile part's and the fuzzer's child
    # processes with servers of their own) and mostly wait on processes, so they run side by side.
    with ThreadPoolExecutor(max_workers=2) as pool:
        hostile_run = pool.submit(hostile_cases.run, args.quick)
        fuzz_run = pool.submit(fuzz_cases.run, cases, seconds, processes)
        faults = fault_cases.run(args.quick)
        hostile, fuzz = hostile_run.result(), fuzz_run.result()
    print("\n".join(fault_table(faults)))
    print("\n".join(hostile_table(hostile)))
    print("\n".join(fuzz_table(fuzz)))
    print(f"{time.monotonic() - started:.1f} s")
    print(result_line(faults, hostile, fuzz))
    return 0


if __name__ == "__main__":
    sys.exit(main())
