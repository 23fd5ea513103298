"""Resident memory of a process tree, read from /proc: a worker and what it started (page preparation
processes, RQ's work horse), as the benches that hold workers to a memory target count it."""
from __future__ import annotations

from pathlib import Path


def tree_rss_mb(pid: int) -> float:
    """VmRSS of a process and its descendants together, in MB (0 for a process already gone)."""
    total, stack = 0.0, [pid]
    while stack:
        current = stack.pop()
        try:
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
            for task in Path(f"/proc/{current}/task").iterdir():
                stack.extend(int(child) for child in (task / "children").read_text().split())
        except (OSError, ValueError):
            continue  # it exited while being read
    return total
