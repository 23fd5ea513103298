"""Resident memory of a process tree, read from /proc: a worker and what it started (page preparation
processes, RQ's work horse), as the benches that hold workers to a memory target count it."""
from __future__ import annotations

import os
from pathlib import Path


def tree_rss_mb(pid: int) -> float:
    """VmRSS of a process and its descendants together, in MB (0 for a process already gone)."""
    return _tree_values(pid, "VmRSS:", sum)


def process_rss_mb(pid: int) -> float:
    """VmRSS of the process alone, in MB (0 for a process already gone): a worker without its helpers."""
    return sum(_values_mb(pid, "VmRSS:", "status"))


def tree_pss_mb(pid: int) -> float:
    """Pss of a process and its descendants together, in MB: each page they share (a forked child's
    copy-on-write pages, shared libraries) counted once, in shares, where VmRSS counts it in each."""
    return _tree_values(pid, "Pss:", sum, source="smaps_rollup")


def largest_peak_rss_mb(pid: int) -> float:
    """peak_rss_mb of bench/hardening.py, one definition for its three parts (the fault lab's workers, the
    hostile crawl, the fuzzer's crawl processes; issue 32 item 4): the largest VmHWM (a process's own peak resident size) among a process and its live descendants
    (a crawl process and its page-preparation process are each held to the memory target). Unlike
    getrusage's ru_maxrss, which survives execve, VmHWM does not start at the size of the parent that
    forked the process: a child of a 1.3 GB test run is not 1.3 GB."""
    return _tree_values(pid, "VmHWM:", lambda values: max(values, default=0.0))


def _tree_values(pid: int, field: str, combine, source: str = "status") -> float:
    """``field`` (kB) of /proc/<pid>/<source> of the process and its descendants, in MB, combined."""
    return combine([value for current in _tree(pid) for value in _values_mb(current, field, source)])


def _values_mb(pid: int, field: str, source: str) -> list[float]:
    """``field`` (kB) of /proc/<pid>/<source>, in MB (none for a process already gone)."""
    return [int(line.split()[1]) / 1024 for line in _read(f"/proc/{pid}/{source}").splitlines()
            if line.startswith(field)]


_TICKS = os.sysconf("SC_CLK_TCK")


def tree_cpu_s(pid: int) -> float:
    """CPU seconds (user + system) of a process and its live descendants, with what each has counted of
    its waited-for children (a page preparation process replaced and reaped is in its parent's), from /proc."""
    total = 0.0
    for current in _tree(pid):
        fields = _read(f"/proc/{current}/stat").rpartition(")")[2].split()
        total += sum(int(value) for value in fields[11:15]) / _TICKS  # utime stime cutime cstime
    return total


def _tree(pid: int):
    """The ids of a process and its live descendants (one that exits while being read is passed over)."""
    stack = [pid]
    while stack:
        current = stack.pop()
        yield current
        try:
            for task in Path(f"/proc/{current}/task").iterdir():
                stack.extend(int(child) for child in (task / "children").read_text().split())
        except (OSError, ValueError):
            continue  # it exited while being read


def _read(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError:
        return ""  # the process exited meanwhile
