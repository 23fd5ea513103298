"""A process's name tells, on its machine, whether it still runs: a killed process has ended (also
before its parent reaps it), and a pid given to another process does not pass for the dead one."""
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from crawlweb.process_identity import Liveness, ProcessName, liveness, parse, this_process

ROOT = Path(__file__).resolve().parents[1]
PRINT_NAME_AND_WAIT = ("import time; from crawlweb.process_identity import this_process; "
                       "print(this_process(), flush=True); time.sleep(120)")


def test_a_live_process_is_alive_and_a_killed_one_has_ended_before_and_after_it_is_reaped():
    child = subprocess.Popen([sys.executable, "-c", PRINT_NAME_AND_WAIT], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        name = parse(child.stdout.readline().strip())
        assert name is not None and name.pid == child.pid
        assert liveness(name) is Liveness.ALIVE
        os.kill(child.pid, signal.SIGKILL)  # not reaped yet: a zombie, which runs nothing
        deadline = time.monotonic() + 10
        while liveness(name) is not Liveness.ENDED and time.monotonic() < deadline:
            time.sleep(0.05)  # the signal is delivered asynchronously
        assert liveness(name) is Liveness.ENDED and Path(f"/proc/{child.pid}").exists()  # a zombie
    finally:
        child.kill()
        child.wait(timeout=30)
    assert liveness(name) is Liveness.ENDED


def test_a_pid_now_held_by_another_process_is_not_the_one_named():
    mine = this_process()
    assert liveness(mine) is Liveness.ALIVE
    reused = ProcessName(mine.host, mine.pid, mine.start + "0")  # same pid, another start time
    assert liveness(reused) is Liveness.ENDED


def test_a_process_on_another_host_cannot_be_told_from_here():
    elsewhere = ProcessName(socket.gethostname() + "-other", os.getpid(), this_process().start)
    assert liveness(elsewhere) is Liveness.UNKNOWN


def test_a_name_reads_back_and_a_bad_one_is_none():
    mine = this_process()
    assert parse(str(mine)) == mine
    assert mine.describe() == f"process {mine.pid} on host {mine.host}"
    assert parse("") is None and parse("pid 12") is None
