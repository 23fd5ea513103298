"""bench/hardening.py's RESULT line: lost is summed over both parts, peak memory is the larger."""
import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "hardening.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("hardening_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_result_line_sums_lost_and_takes_the_larger_memory():
    faults = {"faults_survived": 4, "faults_total": 5, "lost": 2, "peak_rss_mb": 270.04, "cases": []}
    hostile = {"bad_inputs": 41, "lost": 1, "xss_executed": 0, "ssrf": 0, "peak_rss_mb": 310.56, "cases": []}
    assert load_bench().result_line(faults, hostile) == (
        "RESULT faults_survived=4 faults_total=5 bad_inputs=41 lost=3 xss_executed=0 ssrf=0 peak_rss_mb=310.6")
