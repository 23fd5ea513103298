"""Refuse regular expressions that can backtrack catastrophically, before they meet a hostile URL.

Python's `re` cannot be interrupted, so a rule such as ``URL:(a+)+$`` would hold a worker for hours on a
URL of forty a's. The classic cause is a repeat nested in a repeat (``(a+)+``, ``(\\w*\\s?)*``, ``(.*x){20}``)
or alternatives that can match the same text under a repeat (``(a|a)*``, ``(\\w|\\d)+``); both are refused.
"""
from __future__ import annotations

import re

try:
    from re import _constants as _c, _parser as _p  # Python 3.11+
except ImportError:  # pragma: no cover - older Pythons
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

MAX_RULE_REGEX_CHARS = 1000
_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT)


def backtracking_problem(pattern: str) -> str | None:
    """Why ``pattern`` may backtrack catastrophically, or None when it is safe to run on any URL."""
    if len(pattern) > MAX_RULE_REGEX_CHARS:
        return f"regular expression longer than {MAX_RULE_REGEX_CHARS} characters"
    try:
        parsed = _p.parse(pattern)
    except re.error as exc:
        return f"bad regular expression: {exc}"
    return _walk(list(parsed), under_repeat=False)


def _walk(items, under_repeat: bool) -> str | None:
    for op, arg in items:
        if op in _REPEATS:
            low, high, sub = arg
            repeats = high is _c.MAXREPEAT or high > 1
            if repeats and under_repeat:
                return "a repeat inside a repeat (such as (a+)+) can take exponential time"
            if repeats and _separated(list(sub)):
                continue  # (?:[a-z]+\.)*: each round ends at a character the inner repeats cannot take
            if repeats and _overlapping_branches(list(sub)):
                return "alternatives that match the same text under a repeat (such as (a|a)*) can take exponential time"
            found = _walk(list(sub), under_repeat or repeats)
        elif op is _c.SUBPATTERN:
            found = _walk(list(arg[-1]), under_repeat)
        elif op is _c.BRANCH:
            found = next((p for p in (_walk(list(b), under_repeat) for b in arg[1]) if p), None)
        elif op in (_c.ASSERT, _c.ASSERT_NOT):
            found = _walk(list(arg[1]), under_repeat)
        else:
            found = None
        if found:
            return found
    return None


def _separated(items) -> bool:
    """Does every round of a repeated body hold a required character that none of its inner repeats
    can match? Then the rounds cannot be split in more than one way, and nesting is safe."""
    while len(items) == 1 and items[0][0] is _c.SUBPATTERN:
        items = list(items[0][1][-1])
    inner, required = [], []
    for op, arg in items:
        if op in _REPEATS:
            inner.append(_chars(list(arg[2])))
            if any(o in _REPEATS or o is _c.SUBPATTERN or o is _c.BRANCH for o, _ in arg[2]):
                return False
        elif op in (_c.LITERAL, _c.IN):
            required.append(_chars([(op, arg)]))
        else:
            return False
    if not inner or any(chars is None for chars in inner):
        return False
    return any(chars is not None and not chars[0] and all(_disjoint(chars[1], other) for other in inner)
               for chars in required)


def _disjoint(plain: set, chars: tuple[bool, set]) -> bool:
    negated, members = chars
    return plain <= members if negated else not (plain & members)


def _chars(items) -> tuple[bool, set] | None:
    """(negated, characters) a run of single-character items can match, or None when unknown."""
    out: set = set()
    negated = False
    for op, arg in items:
        if op is _c.LITERAL:
            out.add(arg)
        elif op is _c.NOT_LITERAL and len(items) == 1:  # [^/]
            return True, {arg}
        elif op is _c.IN:
            for o, a in arg:
                if o is _c.NEGATE and len(items) == 1:
                    negated = True
                elif o is _c.LITERAL:
                    out.add(a)
                elif o is _c.RANGE:
                    out.update(range(a[0], a[1] + 1))
                elif o is _c.CATEGORY and a is _c.CATEGORY_DIGIT:
                    out.update(range(48, 58))
                else:
                    return None
        else:
            return None
    return negated, out


def _overlapping_branches(items) -> bool:
    # A group holding alternatives, directly under the repeat: do two of them start alike?
    while len(items) == 1 and items[0][0] is _c.SUBPATTERN:
        items = list(items[0][1][-1])
    if len(items) != 1 or items[0][0] is not _c.BRANCH:
        return False
    starts = [_first_chars(list(branch)) for branch in items[0][1][1]]
    for i, first in enumerate(starts):
        for other in starts[i + 1:]:
            if first is None or other is None or first & other:
                return True
    return False


def _first_chars(items) -> set | None:
    """Characters a branch can start with, as a set of samples; None when it may start with almost anything."""
    if not items:
        return None
    op, arg = items[0]
    if op is _c.LITERAL:
        return {arg}
    if op is _c.SUBPATTERN:
        return _first_chars(list(arg[-1]))
    if op in _REPEATS and arg[0] > 0:
        return _first_chars(list(arg[2]))
    if op is _c.IN and all(o is _c.LITERAL for o, _ in arg):
        return {a for _, a in arg}
    if op is _c.IN and all(o in (_c.LITERAL, _c.RANGE) for o, _ in arg):
        return {c for o, a in arg for c in ([a] if o is _c.LITERAL else range(a[0], a[1] + 1))}
    return None
