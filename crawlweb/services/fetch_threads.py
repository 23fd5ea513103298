"""A process's fetch threads: the network step of a leased Target, then its page's preparation.

Shared by the crawl step (its batch of leases) and the detector's side-by-side reads
(polite_fetch.PoliteFetcher.fetch_many): one pool per process, CRAWLER_CONCURRENCY threads.
"""
from __future__ import annotations

import errno
import logging
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings

from crawlweb.crawler.fetch import UNEXPECTED, FetchResult
from crawlweb.crawler.urls import site_name
from crawlweb.models import Target
from crawlweb.services import prep_processes
from crawlweb.services.allocator import limit_arenas
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.leasing import Lease
from crawlweb.services.network import NetworkOutcome, network_step
from crawlweb.services.page_prep import failed_preparation, keeps_page
from crawlweb.services.storing import Fetched, host_interval, robots_policy

log = logging.getLogger(__name__)
DISK_FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT)
_pools: dict[int, ThreadPoolExecutor] = {}
_pools_lock = threading.Lock()


def fetch_pool() -> ThreadPoolExecutor:
    """This process's fetch threads (a forked work horse makes its own)."""
    with _pools_lock:
        pool = _pools.get(os.getpid())
        if pool is None:
            limit_arenas()  # before the fetch threads start: they share few malloc arenas (allocator.py)
            pool = _pools[os.getpid()] = ThreadPoolExecutor(settings.CRAWLER_CONCURRENCY,
                                                            thread_name_prefix="fetch")
        return pool


def fetch_and_prepare(fetcher, lease: Lease, config: CrawlConfig, warc) -> Fetched:
    """In a fetch thread: the network step, then the page's parsing while other fetches wait on the network.

    Whatever one URL does to the network step or its page to the preparation, the failure stays with
    its Target: raised here, it failed the whole batch it came with, and every later step that leased
    it again."""
    time.sleep(lease.wait_s())  # a host leased within the look-ahead: its clock runs out now
    if lease.lost():  # waited past the lease (a loaded machine): whoever leases it next fetches it, once
        log.warning("not fetching %s: its lease ran out before the request", lease.target.url)
        return Fetched(lease, NetworkOutcome(finished_at=time.time()), lease_lost=True)
    try:
        outcome = network_step(fetcher, lease.target.url, robots_policy(lease.host), _etag(lease.target),
                               _last_modified(lease.target), warc, hop_interval=host_interval(lease.host, config))
    except Exception as error:
        if isinstance(error, OSError) and error.errno in DISK_FULL_ERRNOS:
            raise  # the machine's fault, not the URL's: the step pauses the crawl naming the disk (crawl_step)
        log.exception("fetching %s failed unexpectedly", lease.target.url)
        failed = FetchResult(requested_url=lease.target.url, final_url=lease.target.url, error_kind=UNEXPECTED,
                             error=f"crawler error while fetching: {type(error).__name__}: {error}")
        outcome = NetworkOutcome(result=failed, finished_at=time.time())
    prepared = None
    if keeps_page(outcome.result):
        try:
            prepared = prep_processes.prepare(outcome.result, site_name(lease.host.name), config, lease.source_url)
        except Exception as error:  # whatever the page holds, its failure stays with its Target too
            log.exception("preparing %s failed unexpectedly", lease.target.url)
            outcome.result = failed_preparation(outcome.result, error)
    return Fetched(lease, outcome, prepared)


def _etag(target: Target) -> str | None:
    return (target.page.headers.get("etag") if target.page_id else None) or None


def _last_modified(target: Target) -> str | None:
    return (target.page.headers.get("last-modified") if target.page_id else None) or None
