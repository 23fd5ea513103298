"""How a crawl process's memory goes back to the system: glibc's allocator, told two things.

Memory measured over the web fuzzer's long runs (docs/fuzzing.md) grew by 0.1-0.2 MB per page in the
crawl process and in its page-preparation process while the Python objects did not grow (tracemalloc
flat over the same crawls): the memory was the allocator's, freed but kept. Each page is decoded, parsed
and linearized into large short-lived strings and trees (a 128 KiB page is tens of MB of them) between
the long-lived objects of the process, and glibc keeps the pages a freed block leaves in its heaps, one
heap per thread arena (up to eight per core; a crawl step's fetch threads and the test web's serve many
pages at once). So a crawl process asks for few arenas, and gives its free memory back after each step.

Without glibc (another C library) both are no-ops.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import logging

log = logging.getLogger(__name__)
M_ARENA_MAX = -8  # mallopt parameter (malloc.h)
CRAWL_ARENAS = 2


def _libc():
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


_LIBC = _libc()


def limit_arenas(count: int = CRAWL_ARENAS) -> bool:
    """At most ``count`` malloc arenas from now on (threads started later share them); True when set."""
    return bool(_LIBC is not None and _LIBC.mallopt(M_ARENA_MAX, count))


def release_free_memory() -> None:
    """Give the allocator's free pages back to the system (all arenas)."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)
