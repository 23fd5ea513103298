"""How fast a crawl goes and when it will be done: the figures of the dashboard's live panel and of
the command line's progress line.

Pure (no Django): callers pass counts and times they read from the rows (Crawl.pages_fetched,
Target.fetched_at, SiteVerdict), so the arithmetic is tested without a database.
"""
from __future__ import annotations

import math
from dataclasses import dataclass


def per_minute(count: int, seconds: float) -> float:
    """``count`` events over ``seconds`` as a rate per minute (0 when no time has passed)."""
    return 60.0 * count / seconds if seconds > 0 else 0.0


def eta_seconds(done: int, total: int, rate_per_minute: float) -> float | None:
    """Seconds until ``total`` at ``rate_per_minute``; None when nothing moves (no honest guess)."""
    left = max(0, total - done)
    if left == 0:
        return 0.0
    if rate_per_minute <= 0:
        return None
    return 60.0 * left / rate_per_minute


def clock(seconds: float | None) -> str:
    """'1:05:09', '4:07', or '?' for an unknown time."""
    if seconds is None or math.isinf(seconds) or math.isnan(seconds):
        return "?"
    whole = int(round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@dataclass(frozen=True)
class Snapshot:
    """One look at a followed job: ``done`` of ``total`` units (pages, sites), its state and what it found."""

    done: int
    total: int
    elapsed: float  # seconds since following began
    state: str = ""
    unit: str = "pages"
    found: dict | None = None  # e.g. {"bilingual sites": 3}: shown after the rate
    base: int = 0  # units already done when following began (a resumed crawl's earlier pages)

    @property
    def rate(self) -> float:
        """Average units per minute since following began (what the ETA extrapolates)."""
        return per_minute(max(0, self.done - self.base), self.elapsed)

    @property
    def eta(self) -> float | None:
        return eta_seconds(self.done, self.total, self.rate)

    def found_text(self) -> str:
        return ", ".join(f"{name} {count}" for name, count in (self.found or {}).items())

    def plain_line(self) -> str:
        """'pages 120/400 (30%), 95.0/min, bilingual sites 3, ETA 2:57, running' (one line of a log)."""
        share = f" ({100 * self.done // self.total}%)" if self.total else ""
        parts = [f"{self.unit} {self.done}/{self.total}{share}", f"{self.rate:.1f}/min"]
        if self.found:
            parts.append(self.found_text())
        parts.append(f"ETA {clock(self.eta)}")
        if self.state:
            parts.append(self.state)
        return ", ".join(parts)
