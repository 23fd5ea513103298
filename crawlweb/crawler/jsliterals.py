"""The string literals of JavaScript source, read without running it: '…', "…" and `…` (bounded)."""
from __future__ import annotations

import re

# A literal of at most 300 characters on one line ('…', "…"), or a template literal (`…`) of at most 300
# characters: longer ones are markup or data, read through what they contain (script_fill.markup_targets).
STRING = r"""'(?:[^'\\\n]|\\.){0,300}'|"(?:[^"\\\n]|\\.){0,300}"|`[^`]{0,300}`"""
LITERAL = re.compile(STRING)


def literal_value(token: str) -> str | None:
    """The text of a literal token (quotes removed, ``\\/`` read as ``/``), or None for any other token."""
    if token[:1] in "'\"`" and token[-1:] == token[:1] and len(token) >= 2:
        return token[1:-1].replace("\\/", "/")
    return None
