"""Bounds of a host's politeness interval, wherever it comes from: the CRAWLER_HOST_INTERVAL setting,
a crawl's host_interval, or a site's robots.txt Crawl-delay. Pure: no Django imports.

Every one of them is a number a person or a web site wrote; unbounded, `Crawl-delay: 1e300` overflowed
the date of the host's next turn and lost the whole batch it came with. An hour between two requests
to one host is already a crawl of 24 pages a day there; longer waits are read as an hour.
"""
from __future__ import annotations

import math

MAX_HOST_INTERVAL_S = 3600.0


def bounded_interval(seconds: float | None) -> float:
    """``seconds`` within [0, MAX_HOST_INTERVAL_S]: None or negative -> 0; NaN, infinite or larger -> the
    maximum (a value nobody can read is taken as the most polite one)."""
    if seconds is None:
        return 0.0
    seconds = float(seconds)
    if math.isnan(seconds) or seconds > MAX_HOST_INTERVAL_S:
        return MAX_HOST_INTERVAL_S
    return max(0.0, seconds)
