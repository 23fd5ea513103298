"""The trained pair classifier scoring uses, as the training floor (above it) provides it.

training/apps.py plugs training/services/promoted.py's pair_deciders in at start-up; until then, or without the
training app, there is none and the filter alone decides which pairs are kept. The hook runs this way
round because a floor imports only the floors below it.
"""
from __future__ import annotations

from collections.abc import Callable

# (crawl id, site ids) -> {site id: decider}, or None when no classifier is promoted
_pair_deciders: Callable[[int, list[int]], dict[int, Callable] | None] | None = None


def provide(pair_deciders: Callable[[int, list[int]], dict[int, Callable] | None]) -> None:
    """Called by the training app's ready()."""
    global _pair_deciders
    _pair_deciders = pair_deciders


def pair_deciders(crawl_id: int, site_ids: list[int]) -> dict[int, Callable] | None:
    """The promoted pair classifier's decider for each of the sites' scoring, or None (the filter decides)."""
    return _pair_deciders(crawl_id, site_ids) if _pair_deciders is not None else None
