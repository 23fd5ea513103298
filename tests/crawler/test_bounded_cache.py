import pytest

from crawlweb.crawler.bounded_cache import SizeBoundedCache


def test_the_oldest_entries_go_once_the_sizes_exceed_the_bound():
    cache = SizeBoundedCache(10, len)
    for key in ("a", "b", "c"):
        cache.put(key, key * 4)
    assert cache.get("a") is None and cache.get("b") == "bbbb" and cache.get("c") == "cccc"
    assert cache.size == 8 and len(cache) == 2


def test_one_large_entry_pushes_out_many_small_ones_and_one_beyond_the_bound_is_not_kept():
    cache = SizeBoundedCache(10, len)
    for key in "abcdefghij":
        cache.put(key, "x")
    cache.put("big", "y" * 9)
    assert len(cache) == 2 and cache.get("j") == "x" and cache.get("big") == "y" * 9
    assert cache.put("huge", "z" * 11) == "z" * 11 and cache.get("huge") is None
    assert cache.size <= 10


def test_putting_a_key_again_replaces_its_size():
    cache = SizeBoundedCache(10, len)
    cache.put("a", "1234")
    cache.put("a", "12")
    assert cache.size == 2 and cache.get("a") == "12"


def test_a_bound_that_is_not_positive_is_refused():
    with pytest.raises(ValueError, match="max_size must be positive, not 0"):
        SizeBoundedCache(0, len)
