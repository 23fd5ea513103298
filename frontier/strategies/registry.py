"""Crawl.strategy -> Strategy class.

Classes are imported when first asked for: a breadth-first crawl never loads scikit-learn, which
the classifier strategy needs (about 1.5 s of a worker's start-up)."""
from __future__ import annotations

from importlib import import_module

from frontier.strategies.base import Strategy
from frontier.discovery_settings import DiscoverySettings

STRATEGY_CLASSES = {
    "bfs": "frontier.strategies.bfs.BreadthFirst",
    "fc": "frontier.strategies.fc.ForwardCrawl",
    "focc": "frontier.strategies.focc.FocusedCrawl",
    "obfc": "frontier.strategies.obfc.BackForwardCrawl",
    "cobfc": "frontier.strategies.cobfc.ClassifierBackForwardCrawl",
}


def strategy_class(name: str) -> type[Strategy] | None:
    path = STRATEGY_CLASSES.get(name)
    if path is None:
        return None
    module, _, attribute = path.rpartition(".")
    cls = getattr(import_module(module), attribute)
    assert cls.name == name, f"{path} declares name {cls.name!r}, registered as {name!r}"
    return cls


def strategy_classes() -> dict[str, type[Strategy]]:
    return {name: strategy_class(name) for name in STRATEGY_CLASSES}


def strategy_for(crawl) -> Strategy:
    cls = strategy_class(crawl.strategy)
    if cls is None:
        raise ValueError(f"unknown crawl strategy {crawl.strategy!r}")
    return cls(crawl, DiscoverySettings.of(crawl))
