"""A process's memory of the results it computed lately: at most ``limit`` of them.

A site is scored again each time it grows (and once more by each crawl-wide pass), and its pages'
bodies mostly stay as they were, so most of what scoring reads of a pair (the content method's aligned
score, the filter's body readings) was read before, for the same two bodies. Such a result depends only
on its key (the bodies' hashes, the settings that matter) and on the tables it was read with (the
lexicon), so it is kept and reused. Pure: no Django.

Keys hold hashes, never the texts: a remembered result keeps no page alive. When full, the older half
goes (a dict keeps its insertion order): the sites scored long ago, not the one being scored.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from itertools import islice
from typing import Any

_MISSING = object()


class RecentResults:
    def __init__(self, limit: int):
        if limit < 2:
            raise ValueError(f"limit must be at least 2, got {limit}")
        self.limit = limit
        self.results: dict[Hashable, Any] = {}
        self.tables: tuple = ()  # what the results were read with; kept, so their ids stay unique

    def get(self, key: Hashable, compute: Callable[[], Any], tables: tuple = ()) -> Any:
        """The result remembered under ``key``, else ``compute()`` remembered. ``tables``: the objects the
        result was read with (a lexicon's dictionaries); other tables than the last call's forget everything."""
        if len(tables) != len(self.tables) or any(a is not b for a, b in zip(tables, self.tables)):
            self.results, self.tables = {}, tables
        value = self.results.get(key, _MISSING)
        if value is _MISSING:
            if len(self.results) >= self.limit:
                self.results = dict(islice(self.results.items(), len(self.results) // 2, None))
            value = self.results[key] = compute()
        return value

    def __len__(self) -> int:
        return len(self.results)
