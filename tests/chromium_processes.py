"""What an operator sees of the renderer's browsers with ps: the Chromium processes a process started.

A Chromium that Playwright launched is one main process (its command line has
``--remote-debugging-pipe`` and no ``--type=``; its parent is Playwright's driver) with helpers
below it (zygotes, renderers, GPU, network: ``--type=…``). Read from /proc, without any of the renderer's own bookkeeping.
"""
from __future__ import annotations

import threading
from pathlib import Path

PROC = Path("/proc")


def _parents() -> dict[int, int]:
    parents = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # ended meanwhile
            continue
        # pid (comm) state ppid …; comm may hold spaces and parentheses: split after the last ")"
        parents[int(entry.name)] = int(stat.rpartition(")")[2].split()[1])
    return parents


def descendants(root: int, parents: dict[int, int] | None = None) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, parent in (parents or _parents()).items():
        children.setdefault(parent, []).append(pid)
    found, stack = set(), [root]
    while stack:
        for pid in children.get(stack.pop(), []):
            found.add(pid)
            stack.append(pid)
    return found


def command_line(pid: int) -> list[str]:
    try:
        return (PROC / str(pid) / "cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []


def is_chromium(pid: int) -> bool:
    """Running Chromium's own executable (not the shell of its launcher script)."""
    return (command_line(pid) or [""])[0].split(" ")[0].endswith("/chromium")


def is_browser(pid: int, parent: int) -> bool:
    """A Chromium main process: launched by Playwright, not a helper. A helper rewrites its command
    line, but one just forked still shows its parent's, so the parent is checked too; the launcher
    script (/usr/bin/chromium, run by a shell that forks while it prepares) is not the browser."""
    args = command_line(pid)
    return (is_chromium(pid) and "--remote-debugging-pipe" in args and "--type=" not in " ".join(args)
            and not is_chromium(parent))


def browsers_under(root: int) -> set[int]:
    """The Chromium main processes running below ``root``."""
    parents = _parents()
    return {pid for pid in descendants(root, parents) if is_browser(pid, parents[pid])}


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its parent counts as ended)."""
    try:
        state = (PROC / str(pid) / "stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


class BrowserWatch:
    """Every Chromium main process seen below ``root`` while the watch runs (sampled every 50 ms);
    ``new``: those not running when it began."""

    def __init__(self, root: int, every_s: float = 0.05):
        self.root, self.every_s = root, every_s
        self.seen: set[int] = set()
        self.before: set[int] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    @property
    def new(self) -> set[int]:
        return self.seen - self.before

    def __enter__(self) -> "BrowserWatch":
        self.before = browsers_under(self.root)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(5)

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.seen |= browsers_under(self.root)
            self._stop.wait(self.every_s)
