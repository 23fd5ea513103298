"""robots.txt policy per RFC 9309 (Robots Exclusion Protocol), parsed with protego.

Combine obeys the Robots Exclusion Protocol and caches rules locally; this module turns one robots.txt
fetch outcome into a cacheable policy:
  2xx          -> parse the file (only its first 500 KiB, RFC 9309 section 2.5);
  3xx at the end of the redirect chain, 4xx -> "unavailable": everything allowed (section 2.3.1.3);
  429, 5xx, no answer -> "unreachable": everything disallowed (section 2.3.1.4), cached briefly so it is
                           retried soon.  429 is counted as unreachable because it asks us to come back later.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

from protego import Protego

from .politeness import MAX_HOST_INTERVAL_S

MAX_ROBOTS_BYTES = 500 * 1024  # RFC 9309 section 2.5: parse at least the first 500 KiB
DEFAULT_CACHE_SECONDS = 24 * 3600  # RFC 9309 section 2.4: SHOULD NOT cache longer than 24 hours
DEFAULT_ERROR_CACHE_SECONDS = 10 * 60

ALLOW_ALL = "allow_all"
DISALLOW_ALL = "disallow_all"
PARSED = "parsed"


def robots_url(url: str) -> str:
    """The robots.txt URL governing url (same scheme, host and port)."""
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        raise ValueError(f"cannot locate robots.txt for {url!r}: not an absolute URL")
    netloc = parts.netloc.rpartition("@")[2].lower()
    return urlunsplit((parts.scheme.lower(), netloc, "/robots.txt", "", ""))


def _product_token(user_agent: str) -> str:
    """'CrawlwebBot/1.0 (+http://x)' -> 'CrawlwebBot': RFC 9309 section 2.2.1 matches on the product token."""
    token = user_agent.strip().split("/", 1)[0].split(" ", 1)[0]
    return token or user_agent


@dataclass
class RobotsPolicy:
    mode: str  # PARSED, ALLOW_ALL or DISALLOW_ALL
    status: int | None
    text: str
    fetched_at: float
    expires_at: float
    error: str | None = None
    truncated: bool = False
    _parser: Protego | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_response(
        cls,
        status: int | None,
        body: bytes | None,
        now: float | None = None,
        *,
        error: str | None = None,
        cache_seconds: float = DEFAULT_CACHE_SECONDS,
        error_cache_seconds: float = DEFAULT_ERROR_CACHE_SECONDS,
    ) -> "RobotsPolicy":
        now = time.time() if now is None else now
        body = body or b""
        truncated = len(body) > MAX_ROBOTS_BYTES
        # RFC 9309 section 2.3: the file is UTF-8; undecodable bytes must not stop the parse.
        text = body[:MAX_ROBOTS_BYTES].decode("utf-8", errors="replace") if body else ""
        if status is not None and 200 <= status < 300 and error is None:
            mode, ttl = PARSED, cache_seconds
        elif status is not None and (300 <= status < 500) and status != 429 and error is None:
            mode, ttl, text = ALLOW_ALL, cache_seconds, ""
        else:
            mode, ttl, text = DISALLOW_ALL, error_cache_seconds, ""
            if error is None:
                error = f"robots.txt unreachable (HTTP {status})" if status is not None else "robots.txt unreachable"
        return cls(mode=mode, status=status, text=text, fetched_at=now, expires_at=now + ttl,
                   error=error, truncated=truncated)

    @property
    def parser(self) -> Protego | None:
        if self.mode != PARSED:
            return None
        if self._parser is None:
            try:
                self._parser = Protego.parse(self.text)
            except Exception:  # garbage in a robots.txt must never stop the crawl: treat it as no rules
                self._parser = Protego.parse("")
        return self._parser

    def is_expired(self, now: float | None = None) -> bool:
        return (time.time() if now is None else now) >= self.expires_at

    def allows(self, url: str, user_agent: str) -> bool:
        if urlsplit(url).path == "/robots.txt":
            return True  # RFC 9309 section 2.2.2: /robots.txt itself is implicitly allowed
        if self.mode == ALLOW_ALL:
            return True
        if self.mode == DISALLOW_ALL:
            return False
        try:
            return bool(self.parser.can_fetch(url, _product_token(user_agent)))
        except Exception:
            return True

    def crawl_delay(self, user_agent: str) -> float | None:
        """The Crawl-delay for ``user_agent`` in seconds, at most MAX_HOST_INTERVAL_S (an hour: a site asking
        for more gets an hour); None when there is none, or it is negative or not a number."""
        if self.mode != PARSED:
            return None
        try:
            delay = float(self.parser.crawl_delay(_product_token(user_agent)))
        except Exception:  # no Crawl-delay (None), or a value protego kept but float() cannot read
            return None
        if math.isnan(delay) or delay < 0:
            return None
        return min(delay, MAX_HOST_INTERVAL_S)

    def sitemaps(self) -> list[str]:
        if self.mode != PARSED:
            return []
        try:
            return list(self.parser.sitemaps)
        except Exception:
            return []

    def to_dict(self) -> dict:
        """JSON-safe form for the database: the raw (capped) text and the status; the parse is redone on load."""
        return {"mode": self.mode, "status": self.status, "text": self.text, "fetched_at": self.fetched_at,
                "expires_at": self.expires_at, "error": self.error, "truncated": self.truncated}

    @classmethod
    def from_dict(cls, data: dict) -> "RobotsPolicy":
        missing = {"mode", "status", "text", "fetched_at", "expires_at"} - set(data)
        if missing:
            raise ValueError(f"stored robots policy lacks {sorted(missing)}")
        if data["mode"] not in (PARSED, ALLOW_ALL, DISALLOW_ALL):
            raise ValueError(f"stored robots policy has unknown mode {data['mode']!r}")
        return cls(mode=data["mode"], status=data["status"], text=data["text"],
                   fetched_at=float(data["fetched_at"]), expires_at=float(data["expires_at"]),
                   error=data.get("error"), truncated=bool(data.get("truncated", False)))
