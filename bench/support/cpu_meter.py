"""CPU time a web server and its PostgreSQL backends spend during a benchmark, read from /proc.

On a shared machine a round trip's latency follows everyone else's load; the CPU time a request
costs moves far less, so bench/judging.py prints both."""
from __future__ import annotations

import os


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process so far (/proc), None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_pids(master: int, database: str) -> tuple[list[int], list[int]]:
    """The server's processes (master and workers) and the PostgreSQL backends serving the bench database."""
    workers = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == master:
                        workers.append(int(entry))
            except OSError:
                continue
    from django.db import connection
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid() "
                       "AND backend_type = 'client backend'", [database])
        backends = [row[0] for row in cursor.fetchall()]
    return [master, *workers], backends


class CpuMeter:
    """CPU time the server and its database backends spend while the evaluators judge: unlike the
    round trip, it barely depends on what else the machine runs, so it says what a judgment
    costs. Polled, so a backend replaced mid-run (CONN_MAX_AGE) keeps its last reading."""

    def __init__(self, master: int, database: str):
        self.master, self.database = master, database
        self.start: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.backends: set[int] = set()
        self.polled = False

    def poll(self):
        web, backends = server_pids(self.master, self.database)
        self.backends.update(backends)
        for pid in web + backends:
            used = cpu_seconds(pid)
            if used is not None:  # a process first seen later started during the run: all of it counts
                self.start.setdefault(pid, used if not self.polled else 0.0)
                self.last[pid] = used
        self.polled = True

    def seconds(self) -> tuple[float, float]:
        """(web server, database) CPU seconds since the first poll."""
        spent = {pid: self.last[pid] - self.start[pid] for pid in self.last}
        database = sum(used for pid, used in spent.items() if pid in self.backends)
        return sum(spent.values()) - database, database
