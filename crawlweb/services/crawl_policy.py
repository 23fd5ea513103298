"""What the frontier decides for the crawl engine, as the frontier (a floor above) provides it.

The engine leases, fetches and stores; which links of a stored page become Targets and at which
priority (the crawl's strategy), which queue a back/forward crawl leases from next, and which crawl
settings the frontier's own keys accept are the frontier's to say. frontier/apps.py plugs those in
at start-up (``provide``): a floor imports only the floors below it, so the engine asks through
this module and never imports the frontier.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from crawlweb.crawler.candidates import Candidate


@dataclass
class LinkOut:
    """One followable link of a fetched page, as the strategy sees it."""

    candidate: Candidate
    out_of_site: bool
    site: str  # site name of the link's target host


class Planned(Protocol):
    """A link the strategy made a Target of: its queue (origin) and priority (None: breadth-first)."""

    candidate: Candidate
    origin: str
    priority: float | None
    held: bool  # kept out of the queues (Target.State.HELD) until a refill releases it


class CrawlStrategy(Protocol):
    """What storing asks a crawl's strategy (frontier/strategies/base.py implements it)."""

    def expect_pages(self, pages) -> None: ...

    def targets_for_page(self, target, page, parsed, links: list[LinkOut]) -> list[Planned]: ...

    def opens_sitemaps(self, target, page, parsed) -> bool: ...


_provided: dict[str, Callable] = {}


def provide(*, strategy_for: Callable, queue_order: Callable, config_errors: Callable) -> None:
    """Called by the frontier app's ready()."""
    _provided.update(strategy_for=strategy_for, queue_order=queue_order, config_errors=config_errors)


def _policy(name: str) -> Callable:
    try:
        return _provided[name]
    except KeyError:
        raise RuntimeError(f"no crawl policy {name!r}: the frontier app provides it at start-up "
                           "(is 'frontier' in INSTALLED_APPS?)") from None


def strategy_for(crawl) -> CrawlStrategy:
    """The crawl's strategy (frontier.strategies)."""
    return _policy("strategy_for")(crawl)


def queue_order(crawl) -> list[str] | None:
    """HostQueue.Queue names to lease from, most wanted first; None when the crawl has one queue."""
    return _policy("queue_order")(crawl)


def config_errors(config: dict) -> dict[str, str]:
    """Errors of the frontier's keys of a crawl's config ("modules", "priority", discovery keys), by key."""
    return _policy("config_errors")(config)
