"""Crawl.strategy -> Strategy class."""
from __future__ import annotations

from frontier.strategies.base import Strategy
from frontier.strategies.settings import DiscoverySettings


def strategy_classes() -> dict[str, type[Strategy]]:
    from frontier.strategies.bfs import BreadthFirst
    from frontier.strategies.cobfc import ClassifierBackForwardCrawl
    from frontier.strategies.fc import ForwardCrawl
    from frontier.strategies.focc import FocusedCrawl
    from frontier.strategies.obfc import BackForwardCrawl

    return {cls.name: cls for cls in (BreadthFirst, ForwardCrawl, FocusedCrawl, BackForwardCrawl,
                                      ClassifierBackForwardCrawl)}


def strategy_for(crawl) -> Strategy:
    cls = strategy_classes().get(crawl.strategy)
    if cls is None:
        raise ValueError(f"unknown crawl strategy {crawl.strategy!r}")
    return cls(crawl, DiscoverySettings.of(crawl))
