"""A per-process cache bounded by the total size of what it holds, not by its number of entries.

A count alone does not bound memory when entries differ a thousandfold: a parsed robots.txt is a few
bytes for most hosts and up to the 500 KiB a parser reads for some, so 10,000 of them could hold 5 GB.
The oldest entries go first. Thread-safe: a crawl step's fetch threads read and fill it side by side.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class SizeBoundedCache(Generic[V]):
    def __init__(self, max_size: int, size_of: Callable[[V], int]):
        if max_size <= 0:
            raise ValueError(f"max_size must be positive, not {max_size}")
        self.max_size = max_size
        self._size_of = size_of
        self._entries: dict[Hashable, tuple[V, int]] = {}  # in insertion order: the oldest first
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            entry = self._entries.get(key)
        return entry[0] if entry is not None else None

    def put(self, key: Hashable, value: V) -> V:
        """Keep ``value`` (unless it alone is larger than the bound) and return it."""
        size = max(1, self._size_of(value))
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._size -= old[1]
            if size > self.max_size:
                return value
            while self._size + size > self.max_size:
                _key, (_value, dropped) = next(iter(self._entries.items()))
                del self._entries[_key]
                self._size -= dropped
            self._entries[key] = (value, size)
            self._size += size
        return value

    @property
    def size(self) -> int:
        return self._size

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._size = 0
