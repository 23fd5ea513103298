"""Server-side time per request, read from gunicorn's access log (``%(D)s``: microseconds from the
request read to the response written, in the worker).

The client's round trip adds the TCP connect, the wait for a free worker and the client's own
scheduling; on a loaded, shared machine those dominate. The time in the worker is what the code costs."""
from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

# The access-log line gunicorn is told to write: method, path, status, microseconds.
ACCESS_LOG_FORMAT = '%(m)s %(U)s %(s)s %(D)s'
_LINE = re.compile(r"^(?P<method>[A-Z]+) (?P<path>\S+) (?P<status>\d{3}) (?P<micros>\d+)$")


def gunicorn_options(log_path: Path) -> list[str]:
    return ["--access-logfile", str(log_path), "--access-logformat", ACCESS_LOG_FORMAT]


def server_milliseconds(log_path: Path, skip_lines: int = 0) -> dict[tuple[str, str], list[float]]:
    """{(method, path): [ms, …]} of the log's lines after the first ``skip_lines`` (the warm-up)."""
    timings: dict[tuple[str, str], list[float]] = defaultdict(list)
    if not log_path.exists():
        return timings
    with open(log_path) as log:
        for number, line in enumerate(log):
            found = _LINE.match(line.strip())
            if number >= skip_lines and found:
                timings[(found["method"], found["path"])].append(int(found["micros"]) / 1000.0)
    return timings


def line_count(log_path: Path) -> int:
    if not log_path.exists():
        return 0
    with open(log_path) as log:
        return sum(1 for _ in log)
