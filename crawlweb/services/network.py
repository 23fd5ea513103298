"""The network half of a crawl step: robots.txt and page fetches, run in a thread pool.

Nothing here touches the database: threads return plain results and the job's own thread
stores them, so a worker holds one database connection however many fetches are in flight.
"""
from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings

from crawlweb.crawler.fetch import DNS, INVALID_URL, PRIVATE_ADDRESS, FetchResult, Fetcher
from crawlweb.crawler.robots import DISALLOW_ALL, RobotsPolicy, robots_url
from crawlweb.crawler.warc import WarcWriter


@dataclass
class RobotsFetch:
    status: int | None
    body: bytes | None
    error: str | None


@dataclass
class NetworkOutcome:
    """What the network said for one leased Target: a robots.txt fetch, a refusal, or a page."""

    robots: RobotsFetch | None = None
    disallowed: bool = False
    robots_unavailable_until: float | None = None  # RFC 9309: 5xx/unreachable robots.txt, try later
    result: FetchResult | None = None
    finished_at: float = 0.0  # when the host's request ended: its politeness interval starts here


@lru_cache(maxsize=8)
def fetcher_for(address_policy: str) -> Fetcher:
    """One shared Fetcher (one requests.Session with a connection pool) per worker process."""
    return Fetcher(
        settings.CRAWLER_USER_AGENT,
        connect_timeout=settings.CRAWLER_CONNECT_TIMEOUT,
        read_timeout=settings.CRAWLER_READ_TIMEOUT,
        total_timeout=settings.CRAWLER_TOTAL_TIMEOUT,
        max_bytes=settings.CRAWLER_MAX_PAGE_BYTES,
        max_redirects=settings.CRAWLER_MAX_REDIRECTS,
        address_policy=address_policy,
        pool_size=max(settings.CRAWLER_CONCURRENCY, 10),
    )


_warc_writers: dict[int, WarcWriter] = {}
_warc_lock = threading.Lock()


def warc_writer_for(crawl_id: int) -> WarcWriter | None:
    if not settings.CRAWLER_WARC:
        return None
    with _warc_lock:
        if crawl_id not in _warc_writers:
            directory = settings.WARC_DIR / f"crawl-{crawl_id}"
            directory.mkdir(parents=True, exist_ok=True)
            _warc_writers[crawl_id] = WarcWriter(str(directory), f"crawl-{crawl_id}-{os.getpid()}")
        return _warc_writers[crawl_id]


def close_warc_writers() -> None:
    with _warc_lock:
        for writer in _warc_writers.values():
            writer.close()
        _warc_writers.clear()


# A robots.txt fetch failing for one of these reasons says the page itself cannot be fetched either.
PAGE_LEVEL_REFUSALS = (PRIVATE_ADDRESS, INVALID_URL, DNS)


def fetch_robots(fetcher: Fetcher, url: str) -> NetworkOutcome:
    try:
        location = robots_url(url)
    except ValueError as error:  # a Target no link made (typed in the admin) may hold any text
        return NetworkOutcome(result=FetchResult(requested_url=url, final_url=url, error_kind=INVALID_URL,
                                                 error=str(error)))
    result = fetcher.fetch(location)
    if result.error_kind in PAGE_LEVEL_REFUSALS:
        return NetworkOutcome(result=result)
    if result.status is None:
        return NetworkOutcome(robots=RobotsFetch(status=None, body=None, error=result.error_kind or "unreachable"))
    return NetworkOutcome(robots=RobotsFetch(status=result.status, body=result.body, error=None))


def network_step(fetcher: Fetcher, url: str, policy: RobotsPolicy | None, etag: str | None,
                 last_modified: str | None, warc: WarcWriter | None, hop_interval: float = 0.0) -> NetworkOutcome:
    """Fetch robots.txt when the host has no fresh policy (that fetch is this slot's request),
    else the page itself when robots allows it (redirect hops ``hop_interval`` seconds apart)."""
    outcome = _network_step(fetcher, url, policy, etag, last_modified, warc, hop_interval)
    outcome.finished_at = time.time()
    return outcome


def _network_step(fetcher, url, policy, etag, last_modified, warc, hop_interval) -> NetworkOutcome:
    if policy is None:
        return fetch_robots(fetcher, url)
    if not policy.allows(url, settings.CRAWLER_USER_AGENT):
        if policy.mode == DISALLOW_ALL:
            return NetworkOutcome(disallowed=True, robots_unavailable_until=policy.expires_at)
        return NetworkOutcome(disallowed=True)
    result = fetcher.fetch(url, etag=etag, last_modified=last_modified, hop_interval=hop_interval)
    if warc is not None and result.status is not None:
        warc.write_fetch(result)
    return NetworkOutcome(result=result)
