"""Choosing the best hosts from rows read in the order of an upper bound of their keys."""
from crawlweb.services.best_first import BestFirst


def key(priority: float, served: int, host: int) -> tuple:
    return (-priority, served, host)


def read(best: BestFirst, rows) -> None:
    """rows: (host, stored priority, true priority or None, served)."""
    for host, stored, true, served in rows:
        best.offer(host, key(stored, served, host), None if true is None else key(true, served, host), host)


def test_exact_rows_settle_as_soon_as_the_batch_is_read():
    best = BestFirst(limit=2)
    read(best, [(1, 0.9, 0.9, 0), (2, 0.8, 0.8, 0)])
    assert best.settled() and best.chosen() == [1, 2]


def test_a_row_above_its_targets_counts_at_its_true_priority_and_reading_goes_on():
    best = BestFirst(limit=2)
    read(best, [(1, 0.9, 0.1, 0), (2, 0.8, 0.8, 0)])
    assert not best.settled(), "host 1's true 0.1 may be beaten by rows not read yet"
    assert best.chosen() == [2]
    read(best, [(3, 0.5, 0.5, 0)])
    assert best.settled() and best.chosen() == [2, 3]


def test_a_host_with_nothing_due_is_never_chosen():
    best = BestFirst(limit=3)
    read(best, [(1, 0.9, None, 0), (2, 0.8, 0.8, 0)])
    best.all_read()
    assert best.chosen() == [2]


def test_when_every_row_is_read_whatever_was_found_is_sure():
    best = BestFirst(limit=3)
    read(best, [(1, 0.9, 0.2, 0), (2, 0.8, 0.3, 0)])
    assert best.chosen() == []
    best.all_read()
    assert best.chosen() == [2, 1]


def test_equal_priorities_go_least_recently_served_first_then_by_host():
    best = BestFirst(limit=3)
    read(best, [(7, 0.5, 0.5, 10), (2, 0.5, 0.5, 20), (3, 0.5, 0.5, 20)])  # in stored order
    assert best.chosen() == [7, 2, 3]


def test_a_host_read_twice_keeps_its_better_row():
    best = BestFirst(limit=2)
    read(best, [(1, 0.9, 0.2, 0), (2, 0.8, 0.8, 0), (1, 0.7, 0.7, 0)])
    assert best.settled() and best.chosen() == [2, 1]
