"""Job health: the RQ queues, workers and failed jobs an operator watches, read from Redis.

Everything here reads RQ's own registries (what django-rq's admin pages read too) and returns
plain values for the page; retry and delete act on the failed-job registry through RQ's API.
Only called when REDIS_URL is set: the embedded mode has no Redis (see queueing.in_process_states).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import django_rq
from rq.job import Job
from rq.registry import FailedJobRegistry, FinishedJobRegistry, StartedJobRegistry
from rq.worker import Worker

from crawlweb.jobs.queueing import QUEUE_NAMES

ERROR_LINES = 6          # a traceback's last lines say what failed; the rest is in django-rq's job page
FAILED_SHOWN = 50        # per queue: the page stays small when a bug fails thousands of jobs


class UnknownJob(LookupError):
    """The queue is not one of ours, or the job is not (or no longer) in its failed registry."""


@dataclass(frozen=True)
class QueueHealth:
    name: str
    queued: int
    started: int
    finished: int
    failed: int


@dataclass(frozen=True)
class WorkerHealth:
    name: str
    state: str
    current_job: str
    last_heartbeat: datetime | None
    queues: list[str]


@dataclass(frozen=True)
class FailedJob:
    queue: str
    id: str
    call: str
    ended_at: datetime | None
    error: str  # the traceback's last lines


def queue_health() -> list[QueueHealth]:
    rows = []
    for name in QUEUE_NAMES:
        queue = django_rq.get_queue(name)
        connection = queue.connection
        rows.append(QueueHealth(name, queue.count, len(StartedJobRegistry(name, connection)),
                                len(FinishedJobRegistry(name, connection)), len(FailedJobRegistry(name, connection))))
    return rows


def worker_health() -> list[WorkerHealth]:
    connection = django_rq.get_connection(QUEUE_NAMES[0])
    rows = []
    for worker in sorted(Worker.all(connection=connection), key=lambda w: w.name):
        job = worker.get_current_job()
        rows.append(WorkerHealth(worker.name, worker.get_state(), job.get_call_string() if job else "",
                                 worker.last_heartbeat, worker.queue_names()))
    return rows


def failed_jobs() -> list[FailedJob]:
    rows = []
    for name in QUEUE_NAMES:
        queue = django_rq.get_queue(name)
        registry = FailedJobRegistry(name, queue.connection)
        ids = registry.get_job_ids(0, FAILED_SHOWN - 1)
        for job in Job.fetch_many(ids, connection=queue.connection, serializer=queue.serializer):
            if job is not None:
                rows.append(FailedJob(name, job.id, job.get_call_string() or "", job.ended_at, error_tail(job)))
    return rows


def error_tail(job: Job) -> str:
    result = job.latest_result()
    text = result.exc_string if result is not None and result.exc_string else ""
    return "\n".join(text.strip().splitlines()[-ERROR_LINES:])


def _failed_job(queue_name: str, job_id: str) -> tuple[FailedJobRegistry, Job]:
    if queue_name not in QUEUE_NAMES:
        raise UnknownJob(f"unknown queue {queue_name!r}")
    queue = django_rq.get_queue(queue_name)
    registry = FailedJobRegistry(queue_name, queue.connection)
    if job_id not in registry:
        raise UnknownJob(f"job {job_id} is not among the failed jobs of queue {queue_name}")
    return registry, Job.fetch(job_id, connection=queue.connection, serializer=queue.serializer)


def retry_failed(queue_name: str, job_id: str) -> None:
    """Put a failed job back on its queue (RQ's requeue: same id, same arguments)."""
    registry, job = _failed_job(queue_name, job_id)
    registry.requeue(job)


def delete_failed(queue_name: str, job_id: str) -> None:
    _registry, job = _failed_job(queue_name, job_id)
    job.delete()


def clear_failed(queue_name: str) -> int:
    """Delete every failed job of the queue; returns how many."""
    if queue_name not in QUEUE_NAMES:
        raise UnknownJob(f"unknown queue {queue_name!r}")
    queue = django_rq.get_queue(queue_name)
    registry = FailedJobRegistry(queue_name, queue.connection)
    ids = registry.get_job_ids()
    for job in Job.fetch_many(ids, connection=queue.connection, serializer=queue.serializer):
        if job is not None:
            job.delete()
    for job_id in ids:  # a job whose hash expired leaves only its id behind
        registry.remove(job_id)
    return len(ids)
