"""Faults with real processes on loopback (Issue 18): RQ workers crawl the test web on a private
Redis and a private PostgreSQL cluster (bench/support/fault_lab.py), a fault hits mid-crawl, and the
crawl must finish with every reachable page fetched, no Target left open and no page stored twice.
The cases are bench/hardening.py's (bench/support/fault_cases.py); each is bounded by the lab's
time limit, and the lab ends its processes, servers and mounts whatever happens."""
import pytest

from bench.support import fault_cases
from bench.support.fault_lab import Lab

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def lab():
    with Lab() as running:
        yield running


def explain(result) -> str:
    return f"{result.name}: {result.problems}, {result.details}"


def test_the_quick_bench_figures_meet_the_targets():
    """Redis restarted empty mid-crawl (workers crash on it and are restarted, the lost step chains
    come back by the workers' chain watch) and crawl jobs delivered twice."""
    figures = fault_cases.run(quick=True)
    assert figures["faults_total"] == len(fault_cases.QUICK_CASES)
    assert figures["faults_survived"] == figures["faults_total"], [
        (case["name"], case["problems"]) for case in figures["cases"]]
    assert figures["lost"] == 0
    assert 0 < figures["peak_rss_mb"] < 500
    redis_case, duplicate_case = figures["cases"]
    assert redis_case["fetched"] > 30
    assert duplicate_case["details"]["delivered_twice"] > 0 and duplicate_case["details"]["run_again"] > 0
    assert duplicate_case["requested_twice"] == 0, "a job run twice fetched nothing twice: leases decide"


def test_a_crawl_survives_postgresql_restarted_mid_crawl(lab):
    result = fault_cases.postgres_restart(lab)
    assert result.survived, explain(result)
    assert result.lost == 0 and result.stored_twice == 0 and result.fetched > 60
    # A batch in flight when the connections were cut is fetched again once its leases expire; the
    # first fetches were never stored, so they are not counted either.
    assert result.details["pages_counted"] <= result.details["page_requests"] <= result.details["pages_counted"] + 64


def test_leases_that_expire_mid_fetch_fetch_again_but_store_once(lab):
    result = fault_cases.lease_expiry(lab)
    assert result.survived, explain(result)
    assert result.requested_twice >= 1, "the slow page's lease expired while it was fetched"
    assert result.stored_twice == 0 and result.lost == 0


def test_a_full_warc_disk_pauses_the_crawl_naming_it_and_resuming_finishes(lab):
    result = fault_cases.disk_full(lab)
    assert result.survived, explain(result)
    message = result.details["pause_message"]
    assert "No space left on device" in message and "/disk/crawl-" in message and "resume" in message
    assert 0 < result.details["paused_at_pages"] < result.details["pages_counted"]
    # Every stored page has its WARC record and every file reads to its end (checked by the case);
    # pages fetched in the failed batch were neither stored nor counted, and were fetched again.
    assert result.details["pages_counted"] <= result.details["page_requests"]
    assert result.lost == 0 and result.stored_twice == 0
