"""A URL on its way to becoming a Target: pure data, so page preparation (which makes them from
a page's links) runs in a process that never loads Django."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Candidate:
    """A URL on its way to becoming a Target, with the link context that brought it."""

    url_as_linked: str
    anchor_text: str = ""
    text_around: str = ""
    img_alt: str = ""
    img_src: str = ""
    priority: float | None = None  # set by the crawl's strategy; None: breadth-first (minus the depth)
    normalized: str | None = None  # the normalized URL when the caller already computed it
