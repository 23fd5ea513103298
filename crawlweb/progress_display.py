"""The progress of a followed crawl, experiment or scoring pass on the command line.

On a terminal: one live line drawn by tqdm (bar, done/total, rate, what was found, ETA). Anywhere
else (a pipe, a log file, CI): a plain line every ``interval`` seconds and whenever the state
changes, since carriage returns and bars make a log unreadable. Pure (no Django): callers pass
Snapshots (crawlweb.progress) they read from the rows.
"""
from __future__ import annotations

import shutil
import time
from typing import Callable, TextIO

from tqdm import tqdm

from crawlweb.progress import Snapshot, clock

BAR_FORMAT = "{desc}{percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} {unit}{postfix}"  # tqdm starts the postfix with ", "


def raw_stream(stream):
    """The stream under a management command's ``self.stdout``: Django's OutputWrapper ends every
    write with a newline, which would turn a live line into a scroll of lines."""
    return getattr(stream, "_out", stream)


def is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


class ProgressDisplay:
    """Show Snapshots of one followed job; ``close()`` always writes the last state as a plain line."""

    def __init__(self, stream: TextIO, *, label: str, interval: float = 10.0, terminal: bool | None = None,
                 now: Callable[[], float] = time.monotonic):
        self.stream, self.label, self.interval, self.now = stream, label, interval, now
        self.terminal = is_terminal(stream) if terminal is None else terminal
        self.bar: tqdm | None = None
        self.last_line_at: float | None = None
        self.last_state: str | None = None

    def show(self, snapshot: Snapshot) -> None:
        if self.terminal:
            self._draw(snapshot)
        elif self._line_due(snapshot):
            self._line(snapshot)

    def close(self, snapshot: Snapshot | None = None) -> None:
        if self.bar is not None:
            if snapshot is not None:
                self._draw(snapshot)
            self.bar.close()
            self.bar = None
        if snapshot is not None:
            self._line(snapshot)

    def _line_due(self, snapshot: Snapshot) -> bool:
        if self.last_line_at is None or snapshot.state != self.last_state:
            return True
        return self.now() - self.last_line_at >= self.interval

    def _line(self, snapshot: Snapshot) -> None:
        self.stream.write(f"{self.label}: {snapshot.plain_line()}\n")
        self.stream.flush()
        self.last_line_at, self.last_state = self.now(), snapshot.state

    def _draw(self, snapshot: Snapshot) -> None:
        if self.bar is None:
            # The terminal's width when it reports one, else 100 columns.
            width = shutil.get_terminal_size(fallback=(100, 24)).columns
            self.bar = tqdm(total=max(1, snapshot.total), desc=f"{self.label} ", unit=snapshot.unit,
                            file=self.stream, bar_format=BAR_FORMAT, ncols=width, leave=True,
                            initial=min(snapshot.done, max(1, snapshot.total)))
        self.bar.total = max(1, snapshot.total)
        self.bar.n = min(snapshot.done, self.bar.total)
        found = snapshot.found_text()
        parts = [f"{snapshot.rate:.1f}/min"] + ([found] if found else []) + [f"ETA {clock(snapshot.eta)}"]
        if snapshot.state:
            parts.append(snapshot.state)
        self.bar.set_postfix_str(", ".join(parts), refresh=False)
        self.bar.refresh()
