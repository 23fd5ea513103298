"""A name for a process that another process on the same machine can check: does it still live?

The embedded mode runs a crawl's steps in threads of one process (the web server, the demo,
`crawl start`); when that process dies, the crawl's step chain dies with it. A pid alone cannot
tell: pids are reused, and an unrelated process with the dead one's pid would pass for it. So the
name holds the host, the pid and the process's start time as the kernel counts it (clock ticks
since boot, /proc/<pid>/stat) with the boot's id: a reused pid has another start time, a rebooted
machine another boot id. Where /proc is missing (not Linux), only a pid that no process has is
known to be dead; the caller judges the rest otherwise (a heartbeat).

No Django here: plain functions over strings and the operating system.
"""
from __future__ import annotations

import os
import re
import socket
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from pathlib import Path

PROC = Path("/proc")
BOOT_ID = PROC / "sys/kernel/random/boot_id"
UNKNOWN_START = "?"
# "host pid 1234 start 786eb0c9.313653": what Crawl.runner holds.
IDENTITY = re.compile(r"^(?P<host>\S+) pid (?P<pid>\d+) start (?P<start>\S+)$")


class Liveness(Enum):
    ALIVE = "alive"
    ENDED = "ended"
    UNKNOWN = "unknown"  # another machine, or no /proc to read the start time from


@dataclass(frozen=True)
class ProcessName:
    host: str
    pid: int
    start: str

    def __str__(self) -> str:
        return f"{self.host} pid {self.pid} start {self.start}"

    def describe(self) -> str:
        """What an operator reads: "process 1234 on host h"."""
        return f"process {self.pid} on host {self.host}"


@lru_cache(maxsize=1)
def _boot_id() -> str:
    try:
        return BOOT_ID.read_text().strip()[:8]
    except OSError:
        return ""


def _start_token(pid: int) -> str | None:
    """The boot id and the kernel's start time of ``pid``; None when no such process lives (a zombie,
    killed but not yet reaped by its parent, counts as ended); "?" when /proc cannot tell."""
    if not _boot_id():
        return UNKNOWN_START if _pid_exists(pid) else None
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except FileNotFoundError:
        return None
    except OSError:
        return UNKNOWN_START
    # "pid (command name, which may hold spaces and parentheses) state ppid … starttime …"
    fields = stat.rsplit(")", 1)[1].split()
    if fields[0] in ("Z", "X"):
        return None
    return f"{_boot_id()}.{fields[19]}"  # field 22 of proc(5), the state being field 3


def _pid_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: it exists
        return True
    return True


def this_process() -> ProcessName:
    """This process's name (read afresh after a fork: the child has its own pid)."""
    return _named(os.getpid())


@lru_cache(maxsize=4)
def _named(pid: int) -> ProcessName:
    return ProcessName(socket.gethostname(), pid, _start_token(pid) or UNKNOWN_START)


def parse(text: str) -> ProcessName | None:
    match = IDENTITY.match(text or "")
    if match is None:
        return None
    return ProcessName(match["host"], int(match["pid"]), match["start"])


def liveness(name: ProcessName) -> Liveness:
    """Whether the named process still runs, as far as this machine can tell."""
    if name.host != socket.gethostname():
        return Liveness.UNKNOWN
    token = _start_token(name.pid)
    if token is None:
        return Liveness.ENDED
    if UNKNOWN_START in (token, name.start):
        return Liveness.UNKNOWN
    return Liveness.ALIVE if token == name.start else Liveness.ENDED
