"""The fault cases of Issue 18, run in the fault lab (bench/support/fault_lab.py): each injects one
fault into a crawl by real workers and reports whether the crawl survived it.

``run(quick)`` is what bench/hardening.py prints; tests/faults/ run the same cases one by one."""
from __future__ import annotations

import subprocess
import time
from dataclasses import asdict
from pathlib import Path

import redis
from rq import Queue
from rq.registry import FinishedJobRegistry
from warcio.archiveiterator import ArchiveIterator

from bench.support.fault_lab import LEASE_SECONDS, QUICK_SITES, SITES, CaseResult, Lab, Run

DOWN_S = 1.0  # how long a restarted server stays down
WARC_DISK_BYTES = 96 * 1024  # fills after some dozens of the test web's pages


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


def deliver_twice(run: Run) -> None:
    """Every crawl job waiting in the queue is pushed once more, and finished ones once again:
    RQ hands the same job to two workers, or runs it again after it ended."""
    queue = Queue("crawl", connection=redis.Redis.from_url(run.lab.redis.url))
    finished_registry = FinishedJobRegistry(queue=queue)
    deadline, queued, finished = time.monotonic() + 10, [], []
    while not (queued and finished) and time.monotonic() < deadline:  # steps may all be running now
        queued = queued or queue.get_job_ids()
        finished = finished or finished_registry.get_job_ids()[-4:]
        time.sleep(0.02)
    for job_id in queued + finished:
        queue.connection.rpush(queue.key, job_id)
    run.result.details.update(delivered_twice=len(queued), run_again=len(finished))
    if not (queued and finished):
        run.result.problems.append(f"crawl jobs to deliver twice: {len(queued)} queued, {len(finished)} finished")


def duplicate_job(lab: Lab) -> CaseResult:
    result = lab.run_case("crawl jobs delivered twice", deliver_twice)
    if result.requested_twice:  # leases decide who fetches: a job run twice must not fetch twice
        result.problems.append(f"{result.requested_twice} pages requested twice")
        result.survived = False
    return result


def lease_expiry(lab: Lab) -> CaseResult:
    """Leases of one second, three workers, and the test web's slow page (longer than a lease): the
    slow page's lease expires while it is fetched and another step fetches it again; both finish."""
    slow = lab.web.truth()["special_urls"]["slow"]
    result = lab.run_case("leases expire under load", lambda run: None, at_pages=0, workers=3,
                          extra_urls=(slow,), CRAWLER_LEASE_SECONDS="1")
    if not result.requested_twice:
        result.problems.append("no lease expired mid-fetch (no page was requested twice)")
        result.survived = False
    return result


def disk_full(lab: Lab) -> CaseResult:
    """The WARC directory is a tmpfs of WARC_DISK_BYTES: it fills mid-crawl, the crawl must pause
    saying where, count nothing it did not store, and finish once space is freed and it is resumed."""
    disk = lab.tmp / "disk"
    disk.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={WARC_DISK_BYTES}", "tmpfs", str(disk)], check=True,
                   capture_output=True, timeout=10)
    try:
        return lab.run_case("disk full while writing WARC", lambda run: fill_then_free(run, disk), at_pages=0,
                            after=lambda run: check_warc(run, disk), WARC_DIR=str(disk))
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True, timeout=10)


def fill_then_free(run: Run, disk: Path) -> None:
    run.watch(lambda: run.crawl_state() != "running", "the crawl paused on the full disk")
    state, message = run.query("SELECT state, status_message FROM crawlweb_crawl")[0]
    run.result.details["pause_message"] = message
    if state != "paused" or str(disk) not in message:
        run.result.problems.append(f"the crawl did not pause naming {disk}: {state}, {message!r}")
        return
    # The other worker's step, past its WARC write when this one paused the crawl, still stores and counts
    # its pages (stored, with their records: rightly counted); under load it ends after the pause is seen.
    # The count is read once no step holds a lease: from then on nothing may be counted.
    run.watch(lambda: not run.query("SELECT 1 FROM frontier_target WHERE state = 'leased' LIMIT 1"),
              "the steps in flight at the pause ended and handed back their leases")
    counted = run.pages_fetched()
    time.sleep(LEASE_SECONDS + 1)  # as long as a lease: nothing more may be counted meanwhile
    if run.pages_fetched() != counted:
        run.result.problems.append("pages were counted while the crawl was paused")
    # The failed steps handed their leases back: resuming need not wait for them to expire.
    leased = run.query("SELECT count(*) FROM frontier_target WHERE state = 'leased'")[0][0]
    run.result.details["leased_while_paused"] = leased
    if leased:
        run.result.problems.append(f"{leased} Targets stayed leased while the crawl was paused")
    run.result.details["paused_at_pages"] = counted
    subprocess.run(["mount", "-o", f"remount,size={WARC_DISK_BYTES * 64}", str(disk)], check=True,
                   capture_output=True, timeout=10)
    run.lab.manage(["crawl", "resume", "1"], run.env, timeout=60)


def check_warc(run: Run, disk: Path) -> None:
    """Every WARC file reads to its end, and every stored page has its response record."""
    archived, problems = set(), run.result.problems
    for path in sorted(disk.rglob("*.warc.gz*")):
        try:
            with open(path, "rb") as stream:
                for record in ArchiveIterator(stream):
                    if record.rec_type == "response":
                        archived.add(record.rec_headers.get_header("WARC-Target-URI"))
        except Exception as error:  # warcio raises several kinds on a cut record
            problems.append(f"{path.name} is cut: {type(error).__name__}: {error}"[:200])
    run.result.details["warc_responses"] = len(archived)
    stored = {url for (url,) in run.query("SELECT url FROM crawlweb_page")}
    if stored - archived:
        problems.append(f"{len(stored - archived)} stored pages have no WARC record, e.g. {min(stored - archived)}")


CASES = {"redis_restart": redis_restart, "postgres_restart": postgres_restart, "duplicate_job": duplicate_job,
         "lease_expiry": lease_expiry, "disk_full": disk_full}
QUICK_CASES = ("redis_restart", "duplicate_job")


def summary(results: list[CaseResult]) -> dict:
    """The figures bench/hardening.py prints."""
    return {"faults_survived": sum(result.survived for result in results), "faults_total": len(results),
            "lost": sum(result.lost for result in results),
            "peak_rss_mb": round(max((result.peak_rss_mb for result in results), default=0.0), 1),
            "cases": [asdict(result) for result in results]}


def run(quick: bool) -> dict:
    """Every fault case (quick: Redis restarted and jobs delivered twice) in one lab."""
    with Lab(sites=QUICK_SITES if quick else SITES) as lab:
        return summary([CASES[name](lab) for name in (QUICK_CASES if quick else CASES)])
