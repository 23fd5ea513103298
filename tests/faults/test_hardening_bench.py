"""bench/hardening.py's RESULT line: lost is summed over the three parts, peak memory is the largest, and the
web fuzzer's cases and stopped crawls close the line."""
import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "hardening.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("hardening_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_result_line_sums_lost_and_takes_the_largest_memory():
    faults = {"faults_survived": 4, "faults_total": 5, "lost": 2, "peak_rss_mb": 270.04, "cases": []}
    hostile = {"bad_inputs": 41, "lost": 1, "xss_executed": 0, "ssrf": 0, "peak_rss_mb": 310.56, "cases": []}
    fuzz = {"fuzz_cases": 10042, "crawls": 260, "crawls_stopped": 1, "problems": 0, "lost": 4,
            "peak_rss_mb": 298.0, "examples": [], "seconds_per_crawl": 12.5}
    assert load_bench().result_line(faults, hostile, fuzz) == (
        "RESULT faults_survived=4 faults_total=5 bad_inputs=41 lost=7 xss_executed=0 ssrf=0 peak_rss_mb=310.6 "
        "fuzz_cases=10042 crawls_stopped=1")


def test_the_fuzzer_rows_name_the_stopped_crawls():
    fuzz = {"fuzz_cases": 300, "crawls": 8, "crawls_stopped": 1, "problems": 0, "lost": 1, "peak_rss_mb": 250.0,
            "examples": [["state running after 60.0 s; last error 'OverflowError'"]], "seconds_per_crawl": 9.1}
    lines = load_bench().fuzz_table(fuzz)
    assert lines[0].startswith("web fuzzer: 300 cases in 8 crawls")
    assert "1 stopped" in lines[0]
    assert lines[1] == "  FAIL state running after 60.0 s; last error 'OverflowError'"
