"""JSON typed by an operator (a crawl's configuration), read with a bound on its nesting. Pure: no Django.

Python's parser recurses once per level: 3,000 nested ``[`` raised RecursionError, a 500 in the admin
and a traceback from ``crawl start --config``. The text is measured before it is parsed, so a deep one
is refused with a message instead; a crawl configuration needs four levels at most.
"""
from __future__ import annotations

import json

MAX_DEPTH = 20


class JsonInputError(ValueError):
    """Text that is not JSON, or JSON nested deeper than MAX_DEPTH; the message says which."""


def loads(text: str) -> object:
    """The value ``text`` holds; raises JsonInputError."""
    deepest = text_depth(text)
    if deepest > MAX_DEPTH:
        raise JsonInputError(f"nested {deepest} levels deep, more than the {MAX_DEPTH} allowed")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise JsonInputError(f"not JSON: {error}") from None


def text_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON text, brackets inside strings not counted."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def value_depth(value: object) -> int:
    """The deepest nesting of lists and dicts in an already parsed value (walked without recursion)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
            deepest = max(deepest, depth + 1)
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
            deepest = max(deepest, depth + 1)
    return deepest
