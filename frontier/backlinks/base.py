"""Backlink providers: who links to a URL? (Barbosa et al. 2011 crawl "back" through backlinks.)

A provider answers ``backlinks(url) -> list[str]`` (source URLs of pages that link to ``url``) or
raises ProviderError, whose ``transient`` flag says whether trying again later may help
(timeouts, 5xx) or not (bad answer, unknown file). The crawl itself never calls a provider
directly: it calls ``safe_backlinks``, which never raises, so a failing provider cannot stop a
crawl. Providers are slow, paid or rate-limited services, so every provider is wrapped in
RateLimited, which shares one TokenBucket between all the providers it is given.

The crawl's own link graph is a provider too (needs the database; built by the crawl app on
this base class).
"""
from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from typing import Callable


class ProviderError(Exception):
    """A provider could not answer. ``transient``: the same question may succeed later."""

    def __init__(self, message: str, transient: bool):
        super().__init__(message)
        self.transient = transient


class BacklinkProvider(ABC):
    #: short name shown in logs and on the dashboard
    name = "backlinks"

    @abstractmethod
    def backlinks(self, url: str) -> list[str]:
        """Source URLs linking to ``url``; raises ProviderError when it cannot answer."""


class TokenBucket:
    """At most ``rate`` calls per second on average, bursts of at most ``capacity``.

    ``clock`` and ``sleep`` are injectable so tests can count waits instead of sleeping.
    Thread-safe: one bucket may be shared by providers used from several threads.
    """

    def __init__(
        self,
        rate: float,
        capacity: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ):
        if rate <= 0:
            raise ValueError(f"rate must be > 0 calls per second, got {rate}")
        if capacity < 1:
            raise ValueError(f"capacity must be >= 1, got {capacity}")
        self.rate, self.capacity = float(rate), float(capacity)
        self._clock, self._sleep = clock, sleep
        self._tokens = self.capacity
        self._last = clock()
        self._lock = threading.Lock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._last) * self.rate)
        self._last = now

    def try_acquire(self) -> bool:
        """Take a token if one is there; never waits."""
        with self._lock:
            self._refill()
            if self._tokens >= 1:
                self._tokens -= 1
                return True
            return False

    def acquire(self) -> float:
        """Take a token, waiting for it if needed; returns the seconds waited."""
        waited = 0.0
        with self._lock:
            self._refill()
            while self._tokens < 1:
                pause = (1 - self._tokens) / self.rate
                self._sleep(pause)
                waited += pause
                self._refill()
            self._tokens -= 1
        return waited


class RateLimited(BacklinkProvider):
    """A provider that waits for its bucket before every call (the bucket may be shared)."""

    def __init__(self, provider: BacklinkProvider, bucket: TokenBucket):
        self.provider = provider
        self.bucket = bucket
        self.name = provider.name

    def backlinks(self, url: str) -> list[str]:
        self.bucket.acquire()
        return self.provider.backlinks(url)


def safe_backlinks(provider: BacklinkProvider, url: str) -> tuple[list[str], ProviderError | None]:
    """(backlinks, None) or ([], error); never raises, so the crawl goes on without them."""
    try:
        return list(provider.backlinks(url)), None
    except ProviderError as exc:
        return [], exc
    except Exception as exc:  # a bug or an unexpected library error must not stop the crawl either
        error = ProviderError(f"{getattr(provider, 'name', type(provider).__name__)} failed: {exc!r}", transient=False)
        error.__cause__ = exc
        return [], error
