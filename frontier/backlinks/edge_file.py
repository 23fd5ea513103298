"""Backlinks from a file of link edges: one ``source_url<TAB or spaces>target_url`` per line, or CSV
``source_url,target_url``. Blank lines and ``#`` comments are skipped, so is a CSV header
``source,target``. Bad lines are skipped and kept in ``bad_lines`` with their line number, so one
broken line does not lose the rest of a large export (e.g. from a web-graph dump).
"""
from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path
from urllib.parse import urldefrag, urlsplit

from frontier.backlinks.base import BacklinkProvider, ProviderError


def _key(url: str) -> str | None:
    """Lookup key of an absolute http(s) URL: fragment dropped, scheme and host lower-cased."""
    try:
        url = urldefrag(url.strip())[0]
        parts = urlsplit(url)
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            return None
    except ValueError:  # e.g. a malformed IPv6 host
        return None
    path = parts.path or "/"
    query = f"?{parts.query}" if parts.query else ""
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{path}{query}"


def _host(url_or_host: str) -> str:
    text = url_or_host.strip()
    try:
        host = urlsplit(text).hostname if "://" in text else text.split("/")[0].split(":")[0]
    except ValueError:
        return ""
    return (host or "").lower()


class EdgeFileProvider(BacklinkProvider):
    name = "edge-file"

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if not self.path.is_file():
            raise FileNotFoundError(f"backlink edge file not found: {self.path}")
        self.bad_lines: list[tuple[int, str]] = []  # (line number, reason)
        self._by_target: dict[str, list[str]] = defaultdict(list)
        self._by_host: dict[str, list[str]] = defaultdict(list)
        self.edges = 0
        with self.path.open(encoding="utf-8", errors="replace", newline="") as handle:
            for number, line in enumerate(handle, start=1):
                self._add_line(number, line.strip())

    def _fields(self, line: str) -> list[str]:
        if "\t" in line:
            return [f.strip() for f in line.split("\t")]
        if "," in line:
            return [f.strip() for f in next(csv.reader([line]))]
        return line.split()

    def _add_line(self, number: int, line: str) -> None:
        if not line or line.startswith("#"):
            return
        fields = self._fields(line)
        if [f.lower() for f in fields] == ["source", "target"] or [f.lower() for f in fields] == ["source_url", "target_url"]:
            return
        if len(fields) != 2:
            self.bad_lines.append((number, f"expected 2 fields (source, target), found {len(fields)}"))
            return
        source, target = fields
        source_key, target_key = _key(source), _key(target)
        if source_key is None or target_key is None:
            which = "source" if source_key is None else "target"
            self.bad_lines.append((number, f"{which} is not an absolute http(s) URL: {fields[0 if which == 'source' else 1]!r}"))
            return
        if source_key not in self._by_target[target_key]:
            self._by_target[target_key].append(source_key)
            self._by_host[_host(target_key)].append(source_key)
            self.edges += 1

    def backlinks(self, url: str) -> list[str]:
        """Sources linking to exactly this URL (fragment ignored)."""
        key = _key(url)
        if key is None:
            raise ProviderError(f"not an absolute http(s) URL: {url!r}", transient=False)
        return list(self._by_target.get(key, []))

    def backlinks_to_host(self, url_or_host: str) -> list[str]:
        """Sources linking to any page of this host (distinct, in file order)."""
        return list(dict.fromkeys(self._by_host.get(_host(url_or_host), [])))
