"""The harvest curve as an SVG figure: bilingual sites found (y) against pages fetched (x).

Barbosa et al. 2011 compare crawl strategies by this curve (their Figure 3); `manage.py experiment`
draws it as a PNG and the dashboard draws it here, server-side, with no JavaScript. Pure: the
points go in, the coordinates a template needs come out (see templates/frontier/_harvest_chart.html).
"""
from __future__ import annotations

from dataclasses import dataclass, field

# Colour-blind-safe palette (Okabe & Ito), one colour per series.
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000")
MAX_MARKS = 200  # a dot with a tooltip per find; beyond this the line alone says it


@dataclass(frozen=True)
class Series:
    label: str
    points: tuple[tuple[int, int], ...]  # (pages fetched, bilingual sites found so far), x ascending


@dataclass
class Mark:
    x: float
    y: float
    title: str


@dataclass
class DrawnSeries:
    label: str
    color: str
    pixels: str  # the polyline's "x,y x,y ..." in the figure's coordinates (a step curve)
    data: str  # the same points in pages and sites, "pages,sites ...", for whoever reads the page
    marks: list[Mark] = field(default_factory=list)
    found: int = 0
    pages: int = 0


@dataclass
class Tick:
    at: float  # position in the figure
    label: int


@dataclass
class Chart:
    width: int
    height: int
    left: int
    top: int
    right: int
    bottom: int
    series: list[DrawnSeries]
    x_ticks: list[Tick]
    y_ticks: list[Tick]

    @property
    def empty(self) -> bool:
        return not self.series


def nice_ticks(maximum: int, count: int = 5) -> list[int]:
    """0 and round steps (1, 2 or 5 times a power of ten) up to at least ``maximum``."""
    maximum = max(1, int(maximum))
    raw = maximum / count
    step = 1
    while step * 10 <= raw:
        step *= 10
    for factor in (1, 2, 5, 10):
        if step * factor >= raw:
            step *= factor
            break
    top = -(-maximum // step) * step
    return list(range(0, top + 1, step))


def step_points(points: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """A count stays flat until the next find: (x1, y0) is inserted before each (x1, y1)."""
    out: list[tuple[int, int]] = []
    for x, y in points:
        if out and y != out[-1][1]:
            out.append((x, out[-1][1]))
        if not out or (x, y) != out[-1]:
            out.append((x, y))
    return out


def harvest_chart(series: list[Series], width: int = 640, height: int = 320) -> Chart:
    left, top, right, bottom = 48, 12, width - 12, height - 40
    drawn = [s for s in series if s.points]
    x_ticks = nice_ticks(max((x for s in drawn for x, _ in s.points), default=1))
    y_ticks = nice_ticks(max((y for s in drawn for _, y in s.points), default=1), count=4)

    def px(x: float) -> float:
        return round(left + (right - left) * x / x_ticks[-1], 1)

    def py(y: float) -> float:
        return round(bottom - (bottom - top) * y / y_ticks[-1], 1)

    out = []
    for number, s in enumerate(drawn):
        steps = step_points(s.points)
        finds = [(x, y) for (x, y), (_, before) in zip(s.points[1:], s.points) if y > before]
        marks = [Mark(px(x), py(y), f"{s.label}: bilingual site {y} found after {x} pages") for x, y in finds]
        out.append(DrawnSeries(
            label=s.label, color=PALETTE[number % len(PALETTE)],
            pixels=" ".join(f"{px(x)},{py(y)}" for x, y in steps),
            data=" ".join(f"{x},{y}" for x, y in s.points),
            marks=marks if len(marks) <= MAX_MARKS else [],
            found=s.points[-1][1], pages=s.points[-1][0]))
    return Chart(width, height, left, top, right, bottom, out,
                 [Tick(px(t), t) for t in x_ticks], [Tick(py(t), t) for t in y_ticks])
