"""labeling.alignment: paragraphs side by side. Pure."""
from labeling.alignment import align, paragraphs


def test_equal_paragraphs_align_one_to_one():
    left, right = ["a" * 50, "b" * 200, "c" * 20], ["A" * 55, "B" * 190, "C" * 25]
    assert align(left, right) == list(zip(left, right))


def test_a_paragraph_missing_in_translation_leaves_a_gap_not_a_shift():
    left = ["intro " * 10, "only here " * 40, "end " * 10]
    right = ["uvod " * 10, "kraj " * 10]
    rows = align(left, right)
    assert rows == [(left[0], right[0]), (left[1], ""), (left[2], right[1])]


def test_every_paragraph_appears_once_in_order():
    left, right = paragraphs("x\n\nyy\nzzz\n"), paragraphs("1\n22\n333\n4444\n55555")
    rows = align(left, right)
    assert [p for row in rows for p in row[0].split("\n") if p] == left
    assert [p for row in rows for p in row[1].split("\n") if p] == right


def test_a_paragraph_split_in_translation_shares_one_row_on_either_side():
    long_left, halves = "word " * 80, ["riječ " * 33, "riječ " * 33]
    assert align(["a" * 30, long_left, "z" * 30], ["A" * 30, *halves, "Z" * 30]) == [
        ("a" * 30, "A" * 30), (long_left, "\n".join(halves)), ("z" * 30, "Z" * 30)]
    assert align(["A" * 30, *halves, "Z" * 30], ["a" * 30, long_left, "z" * 30]) == [
        ("A" * 30, "a" * 30), ("\n".join(halves), long_left), ("Z" * 30, "z" * 30)]


def test_pages_too_long_to_align_are_shown_row_by_row():
    left, right = ["l"] * 401, ["r"] * 3
    assert align(left, right) == [("l", "r")] * 3 + [("l", "")] * 398
    assert align([], []) == [] and align(["only"], []) == [("only", "")]
