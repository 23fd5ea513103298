"""The best hosts of a frontier, read in the order of an upper bound of their keys (pure: no Django).

Leasing reads HostQueue rows in the order of their stored key, (-best_priority, served_at, host id):
smallest first. A row's best_priority is at least the priority of its host's best Target due now,
so the row's true key (the same with that Target's priority) is never ahead of its stored key, and
every row not read yet has a true key at or behind the stored key of the last row read. Once
``limit`` hosts found have true keys at or ahead of that key, no row further on can beat them and
reading stops: the lazy evaluation of a priority queue whose keys can only fall. When every stored
key is exact (nearly always), the first ``limit`` rows read are the answer.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable

Key = tuple  # (-priority, served_at, host id): smaller is leased first


@dataclass
class BestFirst:
    limit: int
    _best: dict[Hashable, tuple[Key, Any]] = field(default_factory=dict)  # host -> (true key, item)
    _last_read: Key | None = None
    _all_read: bool = False

    def offer(self, host: Hashable, stored_key: Key, true_key: Key | None, item: Any) -> None:
        """One row, in stored key order; ``true_key`` None when its host has nothing due in it.
        A host read twice (its two queues, in a one-queue crawl) keeps its better row."""
        self._last_read = stored_key
        if true_key is None:
            return
        held = self._best.get(host)
        if held is None or true_key < held[0]:
            self._best[host] = (true_key, item)

    def all_read(self) -> None:
        """No row is left: whatever was found is sure."""
        self._all_read = True

    def sure(self) -> list[Any]:
        """The items no unread row can beat, best first."""
        ranked = sorted(self._best.values(), key=lambda pair: pair[0])
        if self._all_read:
            return [item for _, item in ranked]
        return [item for key, item in ranked if self._last_read is not None and key <= self._last_read]

    def settled(self) -> bool:
        return len(self.sure()) >= self.limit

    def chosen(self) -> list[Any]:
        """The best ``limit`` items found that are sure (fewer when reading stopped early)."""
        return self.sure()[:self.limit]
