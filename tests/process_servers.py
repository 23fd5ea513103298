"""Helpers for tests that start the application as separate processes (gunicorn) on loopback."""
from __future__ import annotations

import socket
import time

import requests


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_http(url: str, *, timeout: float) -> None:
    """Until ``url`` answers at all (any status), or AssertionError after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            requests.get(url, timeout=15)  # a worker's first request loads the application
            return
        except (requests.ConnectionError, requests.Timeout):
            time.sleep(0.2)
    raise AssertionError(f"{url} did not answer within {timeout} s")
