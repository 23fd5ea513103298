"""Folding a tally's deltas (crawlweb.tallies.folding): the arithmetic alone, no database."""
from crawlweb.tallies.folding import fold_plan, members_moved, summed


def test_deltas_of_a_key_are_summed_and_keys_that_cancel_out_are_left_out():
    assert summed([("a", 1), ("b", 2), ("a", 4), ("b", -2), ("c", -1)]) == {"a": 5, "c": -1}


def test_a_new_key_gets_a_folded_row_a_moved_one_an_update_and_an_emptied_one_goes():
    plan = fold_plan({"new": 3, "moved": 2, "emptied": -4}, {"moved": (10, 5), "emptied": (11, 4), "kept": (12, 1)})
    assert plan.new == {"new": 3}
    assert plan.changed == {10: 7}
    assert plan.emptied == [11]


def test_members_count_the_keys_whose_sum_turns_positive_or_comes_back_to_zero():
    assert [members_moved(0, 1), members_moved(1, 0), members_moved(2, 5), members_moved(0, 0)] == [1, -1, 0, 0]
    # a host gains its first Targets, another loses its last, a third only changes its number
    plan = fold_plan({"gains": 2, "loses": -3, "changes": 4}, {"loses": (1, 3), "changes": (2, 1)})
    assert plan.members == 0
    assert fold_plan({"a": 1, "b": 1}, {}).members == 2


def test_a_negative_sum_is_kept_until_the_deltas_that_balance_it_are_folded():
    # committed deltas never sum below zero (a row is changed only once its insert committed), but the
    # arithmetic does not rely on it: a folded -1 waits for its +1 and counts no member meanwhile
    first = fold_plan({"host": -1}, {})
    assert first.new == {"host": -1} and first.members == 0
    second = fold_plan({"host": 1}, {"host": (7, -1)})
    assert second.emptied == [7] and second.members == 0


def test_folding_nothing_plans_nothing():
    plan = fold_plan({}, {"a": (1, 3)})
    assert (plan.new, plan.changed, plan.emptied, plan.members) == ({}, {}, [], 0)
