"""Precision with its Wilson 95 % interval as an SVG bar chart, drawn on the server (as the harvest
curve is, frontier.harvest_chart). Pure: rows go in, the coordinates the template
templates/labeling/_precision_chart.html needs come out."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Bar:
    label: str
    y: float  # top of the bar
    width: float  # bar length in pixels (the point estimate)
    low_x: float  # the interval's whisker
    high_x: float
    title: str  # tooltip: the figure in words
    href: str  # the items behind it
    overall: bool = False


@dataclass(frozen=True)
class Tick:
    x: float
    label: str


@dataclass(frozen=True)
class PrecisionChart:
    width: int
    height: int
    left: int
    right: int
    bar_height: int
    bars: list[Bar]
    ticks: list[Tick]

    @property
    def empty(self) -> bool:
        return not self.bars


@dataclass(frozen=True)
class ChartRow:
    label: str
    p: float | None
    low: float | None
    high: float | None
    judged: int
    href: str
    overall: bool = False


WIDTH, LEFT, RIGHT_MARGIN, TOP, BAR, GAP = 640, 230, 20, 10, 16, 8


def precision_chart(rows: list[ChartRow]) -> PrecisionChart:
    """One bar per row with a figure; rows without judged items are left out (nothing to draw)."""
    right = WIDTH - RIGHT_MARGIN
    span = right - LEFT
    bars = []
    for row in (r for r in rows if r.p is not None):
        y = TOP + len(bars) * (BAR + GAP)
        bars.append(Bar(row.label[:40], y, row.p * span, LEFT + row.low * span, LEFT + row.high * span,
                        f"{row.label}: {row.p:.1%} (95 % {row.low:.1%}–{row.high:.1%}), {row.judged} judged",
                        row.href, row.overall))
    height = TOP + len(bars) * (BAR + GAP) + 24
    ticks = [Tick(LEFT + f * span, f"{f:.0%}") for f in (0, 0.25, 0.5, 0.75, 1.0)]
    return PrecisionChart(WIDTH, height, LEFT, right, BAR, bars, ticks)
