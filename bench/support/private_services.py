"""A Redis server and a PostgreSQL cluster of the caller's own, on free loopback ports, that it may
stop and start at will (the shared servers on 6379 and 5432 are never touched).

Both live in a temporary directory and are ended by ``close()``, whatever state they are in.
PostgreSQL refuses to run as root, so when this process is root the cluster belongs to the
``postgres`` user (``runuser``)."""
from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import psycopg
import redis


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(ready, what: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} not ready after {timeout:.0f} s")
        time.sleep(0.05)


class PrivateRedis:
    """redis-server without persistence: a restart loses every queued job, the worst case."""

    def __init__(self, directory: Path):
        self.directory, self.port = directory, free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        log = open(self.directory / "redis.log", "ab")
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.directory)], stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        wait_until(self._answers, f"private redis-server on port {self.port}", 10)

    def _answers(self) -> bool:
        try:
            return redis.Redis.from_url(self.url, socket_timeout=0.5).ping()
        except redis.exceptions.ConnectionError:
            return False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None

    def close(self) -> None:
        self.stop()


class PrivatePostgres:
    """A cluster made by initdb in ``directory``, started and stopped with pg_ctl."""

    def __init__(self, directory: Path):
        self.directory, self.port = directory, free_port()
        self.data = directory / "data"
        self.bin = Path(sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))[-1]).parent

    def url(self, database: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str, timeout: float = 60) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {(done.stderr or done.stdout).strip()[-300:]}")

    def init(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.directory, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--locale=C.UTF-8", "--no-sync")
        self.start()

    def start(self) -> None:
        # fsync off: the cluster is thrown away; a fast "immediate" stop is the restart under test.
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.directory} -c fsync=off " \
                  "-c max_connections=200"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.directory / "postgres.log"), "-o", options,
                  "-w", "-t", "30", "start")

    def stop(self, mode: str = "fast") -> None:
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "30", "stop")

    def admin(self, sql: str) -> None:
        with psycopg.connect(self.url().replace("postgres://", "postgresql://"), autocommit=True) as conn:
            conn.execute(sql)

    def close(self) -> None:
        try:
            self.stop("immediate")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)
