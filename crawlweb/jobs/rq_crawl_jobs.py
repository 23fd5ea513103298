"""Which RQ jobs belong to a crawl, so a crawl step can ask whether its own follow-up jobs are still
queued or running (RQ itself indexes jobs by queue, not by the crawl they work for).

Each follow-up job's id is noted in a sorted set per crawl (score: when it was noted) before the job
is queued; asking reads the jobs' statuses from RQ's own job hashes and drops the ids of jobs that
ended (finished, failed, stopped, canceled, or expired). The set thus holds about the crawl's pending
jobs, and one question costs one pipelined read per 500 of them.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

from rq.job import Job

INDEX_KEY = "crawlweb:crawls-with-jobs"
PENDING_STATUSES = {"queued", "started", "deferred", "scheduled"}
# A job id is noted just before RQ stores the job: an id without a job hash is taken for one about
# to be queued for this long, then for one that expired.
NOT_YET_QUEUED_S = 10.0
CHUNK = 500


def crawl_key(crawl_id: int) -> str:
    return f"crawlweb:crawl-jobs:{crawl_id}"


def remember(connection, crawl_id: int, job_id: str) -> None:
    pipe = connection.pipeline()
    pipe.zadd(crawl_key(crawl_id), {job_id: time.time()})
    pipe.sadd(INDEX_KEY, crawl_id)
    pipe.execute()


def _name_of(description: bytes | None) -> str:
    """'evaluation.jobs.score_site(3, 12)' -> 'score_site'."""
    call = (description or b"").decode(errors="replace")
    return call.split("(", 1)[0].rsplit(".", 1)[-1] or "job"


@dataclass(frozen=True)
class PendingJob:
    name: str   # the job function's name
    queue: str  # "" for a job about to be queued
    queued: bool  # waiting in its queue (not yet taken by a worker)


def pending_jobs(connection, crawl_id: int) -> list[PendingJob]:
    """The crawl's follow-up jobs queued, deferred, scheduled or running."""
    key, now = crawl_key(crawl_id), time.time()
    noted = connection.zrange(key, 0, -1, withscores=True)
    jobs: list[PendingJob] = []
    ended = []
    for start in range(0, len(noted), CHUNK):
        chunk = noted[start:start + CHUNK]
        pipe = connection.pipeline()
        for job_id, _ in chunk:
            pipe.hmget(Job.key_for(job_id.decode()), "status", "description", "origin")
        for (job_id, noted_at), (status, description, origin) in zip(chunk, pipe.execute()):
            if status is None:
                if now - noted_at < NOT_YET_QUEUED_S:
                    jobs.append(PendingJob("job being queued", "", False))
                else:
                    ended.append(job_id)
            elif status.decode() in PENDING_STATUSES:
                jobs.append(PendingJob(_name_of(description), (origin or b"").decode(), status == b"queued"))
            else:
                ended.append(job_id)
    if ended:
        connection.zrem(key, *ended)
    if not jobs and not connection.zcard(key):
        connection.srem(INDEX_KEY, crawl_id)
    return jobs


def pending(connection, crawl_id: int) -> Counter:
    """Job name -> the crawl's follow-up jobs queued, deferred, scheduled or running."""
    return Counter(job.name for job in pending_jobs(connection, crawl_id))


def crawls(connection) -> set[int]:
    """The crawls that may have follow-up jobs pending (ask ``pending`` for each)."""
    return {int(crawl_id) for crawl_id in connection.smembers(INDEX_KEY)}
