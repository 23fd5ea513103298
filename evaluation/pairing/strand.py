"""STRAND-style structural similarity of two HTML documents (Resnik & Smith).

Each document is linearized to tokens [START:tag], [END:tag] and [Chunk:len] (a
run of visible text and its length; script/style contents and comments are
dropped).  The two token sequences are aligned with difflib (markup tokens match
on their tag, chunks match any chunk).  Reported:
- dp: difference percentage, inserted + deleted tokens / all alignment positions;
- n: number of aligned text-chunk pairs;
- r: Pearson correlation of the lengths of the aligned chunks (None if n < 2 or
  a side has constant lengths).
Translations of one template have low dp and high r.
"""
from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from html.parser import HTMLParser

_SKIP = {"script", "style", "noscript", "template"}


@dataclass(frozen=True)
class StrandScores:
    dp: float
    n: int
    r: float | None
    tokens_a: int
    tokens_b: int


class _Linearizer(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tokens: list[tuple[str, int]] = []  # (key, chunk length or 0)
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in _SKIP:
            self._skip += 1
        self.tokens.append((f"[START:{tag}]", 0))

    def handle_endtag(self, tag):
        if tag in _SKIP and self._skip:
            self._skip -= 1
        self.tokens.append((f"[END:{tag}]", 0))

    def handle_data(self, data):
        text = " ".join(data.split())
        if text and not self._skip:
            self.tokens.append(("[Chunk]", len(text)))
            self.texts.append(text)


def linearize(html: str) -> list[tuple[str, int]]:
    """Tokens of a document: ("[START:p]", 0), ("[Chunk]", 42), ("[END:p]", 0), …"""
    if not isinstance(html, str):
        raise TypeError(f"html must be str, got {type(html).__name__}")
    parser = _Linearizer()
    parser.feed(html)
    parser.close()
    return parser.tokens


def visible_text(html: str) -> str:
    """The text chunks of a document joined by spaces (script/style dropped)."""
    parser = _Linearizer()
    parser.feed(html)
    parser.close()
    return " ".join(parser.texts)


def pearson(xs: list[float], ys: list[float]) -> float | None:
    if len(xs) < 2:
        return None
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / math.sqrt(sxx * syy)


def strand_scores(html_a: str, html_b: str) -> StrandScores:
    a, b = linearize(html_a), linearize(html_b)
    matcher = difflib.SequenceMatcher(None, [k for k, _ in a], [k for k, _ in b], autojunk=False)
    aligned = changed = 0
    lengths_a: list[float] = []
    lengths_b: list[float] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            aligned += i2 - i1
            for (key, la), (_, lb) in zip(a[i1:i2], b[j1:j2]):
                if key == "[Chunk]":
                    lengths_a.append(la)
                    lengths_b.append(lb)
        else:
            changed += (i2 - i1) + (j2 - j1)
    positions = aligned + changed
    dp = changed / positions if positions else 0.0
    return StrandScores(dp, len(lengths_a), pearson(lengths_a, lengths_b), len(a), len(b))
