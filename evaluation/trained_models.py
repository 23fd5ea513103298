"""The trained pair classifier scoring uses, as the training floor (above it) provides it.

training/apps.py plugs training/services/promoted.py's pair_decider in at start-up; until then, or without the
training app, there is none and the filter alone decides which pairs are kept. The hook runs this way
round because a floor imports only the floors below it.
"""
from __future__ import annotations

from collections.abc import Callable

_pair_decider: Callable[[int, int], Callable | None] | None = None


def provide(pair_decider: Callable[[int, int], Callable | None]) -> None:
    """Called by the training app's ready()."""
    global _pair_decider
    _pair_decider = pair_decider


def pair_decider(crawl_id: int, site_id: int):
    """The promoted pair classifier's decider for one site's scoring pass, or None (the filter decides)."""
    return _pair_decider(crawl_id, site_id) if _pair_decider is not None else None
