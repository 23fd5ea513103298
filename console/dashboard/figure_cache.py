"""A running crawl's aggregate figures, kept for DASHBOARD_CACHE_SECONDS in the web process.

Every open crawl page polls its live panel every 2 s (and its discovery panel every 5 s); each poll
counts over the crawl's Targets, pages, layers and pairs. Several operators (or tabs) on one crawl
would repeat the same counts many times a second while they move only by what the crawl stored
meanwhile. A running crawl's figures are therefore read once per window and process; a crawl that is
not running shows exact figures on every read (they no longer move, and a test or an operator who
reads them after a change sees it)."""
from __future__ import annotations

from typing import Callable

from django.conf import settings
from django.core.cache import caches

from crawlweb.models import Crawl

CACHE = "default"  # per process (locmem): no shared service is needed, nothing outlives the process


def crawl_figures(kind: str, crawl: Crawl, compute: Callable[[], dict]) -> dict:
    """``compute()``, or its result from the last DASHBOARD_CACHE_SECONDS while the crawl runs."""
    seconds = settings.DASHBOARD_CACHE_SECONDS
    if not seconds or crawl.state != Crawl.State.RUNNING:
        return compute()
    # started_at in the key: a crawl started again (or a reused id in a test database) starts afresh
    key = f"dashboard:{kind}:{crawl.pk}:{crawl.started_at.timestamp() if crawl.started_at else 0}"
    cache = caches[CACHE]
    figures = cache.get(key)
    if figures is None:
        figures = compute()
        cache.set(key, figures, seconds)
    return figures
