"""Per crawl, the follow-up jobs it has queued or running: what a running crawl with nothing to
lease waits for before it may finish (crawlweb.jobs.crawl_step._own_jobs_pending), and what a
finished one still has to store (its last pairing pass, its site verdicts)."""
from __future__ import annotations

from dataclasses import dataclass

from crawlweb.jobs.queueing import crawls_with_pending_jobs, describe_jobs, pending_crawl_jobs
from crawlweb.models import Crawl


@dataclass(frozen=True)
class CrawlWait:
    crawl: Crawl
    jobs: str  # "3 detect_site, 1 score_crawl"


def crawl_waits() -> list[CrawlWait]:
    pending = {crawl_id: pending_crawl_jobs(crawl_id) for crawl_id in sorted(crawls_with_pending_jobs())}
    crawls = Crawl.objects.in_bulk([crawl_id for crawl_id, jobs in pending.items() if jobs])
    return [CrawlWait(crawls[crawl_id], describe_jobs(pending[crawl_id])) for crawl_id in sorted(crawls)]
