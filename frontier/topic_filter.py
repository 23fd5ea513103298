"""Combine's built-in topic filter: term triplets matched against a document (Combine doc, Sec. 4.5).

Topic definition (Sec. 4.5.2 grammar), one triplet per line, ``#`` comments and blank lines ignored::

    50: optical glass=A.14.5, D.2.2        weight: terms=class-list
    30: glass @and fiberoptics=D.2.2.8     @and: all parts must occur, in any order
    10: pitcher[^\\s]*=CP                   Perl-style regular expressions
    -10: pitcher[^\\s]* @and baseball=CP    negative weights exclude concepts

Choices where the doc is vague (each is marked "choice" below):
- every term is a regular expression matched on whole words of the lower-cased text (a plain word
  matches itself; spaces in a phrase match any run of white space); ``[\\s]*`` at the end of a word
  is read as the doc describes it, truncation, i.e. ``[^\\s]*``;
- plain matching (Sec. 4.5.4): score = sum over terms and locations of
  hits[location][term] * weight[term] * weight[location]; an @and term matches when all its parts
  occur anywhere in the document and counts the hits of its rarest part; location weights are
  LOCATION_WEIGHTS (the doc calls them ad hoc and of little effect on precision);
- position-weighted matching (Sec. 4.5.5): title, meta, headings, text (and the URL path words)
  are joined into one text, positions are word numbers from 1, and each match adds
  weight / (log(k * position + 1) * proximity), k = 0.5, proximity = 1 for single terms and
  log(mean distance between the parts + 1) for @and terms, whose j-th match pairs the j-th
  occurrence of each part at the position of the earliest one. Regular expressions work here too;
- total = the sum over matched terms (each term counted once, not once per class);
  relevant when total >= cut-off.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

LOCATION_WEIGHTS = {"title": 10.0, "meta": 4.0, "headings": 4.0, "url": 2.0, "text": 1.0}
POSITION_K = 0.5
_LINE = re.compile(r"^\s*(-?\d+)\s*:\s*(.+?)\s*=\s*([^=]+?)\s*$")


class TopicDefinitionError(ValueError):
    """A topic definition line that does not follow the grammar; names the line number."""


@dataclass(frozen=True)
class TopicDocument:
    title: str = ""
    headings: list[str] | tuple[str, ...] = ()
    text: str = ""
    url: str = ""
    meta: str = ""


@dataclass(frozen=True)
class Term:
    line: int
    weight: int
    source: str
    parts: tuple[re.Pattern, ...]  # one pattern per @and component
    classes: tuple[str, ...]

    @property
    def is_boolean(self) -> bool:
        return len(self.parts) > 1


@dataclass
class TopicScore:
    total: float
    per_class: dict[str, float] = field(default_factory=dict)
    matches: list[dict] = field(default_factory=list)  # {term, weight, classes, hits, score}


def _compile_part(text: str, line: int) -> re.Pattern:
    # choice: "[\s]*" ends a word as truncation, which is what the doc's example says it does
    pattern = re.sub(r"\[\\s\]\*", r"[^\\s]*", text)
    pattern = re.sub(r" +", r"\\s+", pattern)
    try:
        return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", re.IGNORECASE)
    except re.error as exc:
        raise TopicDefinitionError(f"line {line}: bad regular expression {text!r}: {exc}") from exc


def _words(text: str) -> str:
    return " ".join(text.lower().split())


class TopicDefinition:
    def __init__(self, terms: list[Term]):
        self.terms = terms

    @classmethod
    def parse(cls, text: str) -> "TopicDefinition":
        terms = []
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            found = _LINE.match(line)
            if not found:
                raise TopicDefinitionError(
                    f"line {number}: expected 'WEIGHT: TERMS=CLASS[, CLASS]' (e.g. '50: optical glass=D.2'), got {raw!r}"
                )
            weight, term_text, class_text = int(found.group(1)), found.group(2), found.group(3)
            pieces = [p.strip() for p in re.split(r"(?:^|\s+)@and(?:\s+|$)", term_text)]
            if any(not p or p == "@and" for p in pieces):
                raise TopicDefinitionError(f"line {number}: empty term around '@and' in {raw!r}")
            classes = tuple(c.strip() for c in class_text.split(","))
            if any(not c for c in classes):
                raise TopicDefinitionError(f"line {number}: empty class id in {raw!r}")
            parts = tuple(_compile_part(p, number) for p in pieces)
            terms.append(Term(number, weight, term_text, parts, classes))
        if not terms:
            raise TopicDefinitionError("topic definition has no term lines")
        return cls(terms)

    def score(self, doc: TopicDocument, algorithm: str = "plain") -> TopicScore:
        if algorithm == "plain":
            scorer = self._plain
        elif algorithm == "position":
            scorer = self._position
        else:
            raise ValueError(f"algorithm must be 'plain' or 'position', got {algorithm!r}")
        result = TopicScore(total=0.0)
        for term in self.terms:
            value, hits = scorer(term, doc)
            if hits == 0:
                continue
            result.total += value
            for c in term.classes:
                result.per_class[c] = result.per_class.get(c, 0.0) + value
            result.matches.append(
                {"term": term.source, "weight": term.weight, "classes": list(term.classes), "hits": hits, "score": value}
            )
        return result

    def is_relevant(self, doc: TopicDocument, cutoff: float, algorithm: str = "plain") -> bool:
        return self.score(doc, algorithm).total >= cutoff

    # Algorithm 1, plain matching (Sec. 4.5.4)
    @staticmethod
    def _locations(doc: TopicDocument) -> dict[str, str]:
        return {
            "title": _words(doc.title),
            "meta": _words(doc.meta),
            "headings": _words(" ".join(doc.headings)),
            "url": _words(re.sub(r"[/_.?=&-]+", " ", re.sub(r"^\w+://[^/]*", "", doc.url))),
            "text": _words(doc.text),
        }

    def _plain(self, term: Term, doc: TopicDocument) -> tuple[float, int]:
        locations = self._locations(doc)
        hits = [{loc: len(p.findall(text)) for loc, text in locations.items()} for p in term.parts]
        totals = [sum(h.values()) for h in hits]
        if min(totals) == 0:
            return 0.0, 0  # an @and term needs every part somewhere in the document
        # choice: an @and term counts the hits of its rarest part, in that part's locations,
        # so parts found in different locations (title and text) still match
        rarest = hits[totals.index(min(totals))]
        value = sum(n * term.weight * LOCATION_WEIGHTS[loc] for loc, n in rarest.items())
        return value, min(totals)

    # Algorithm 2, position weighted matching (Sec. 4.5.5)
    def _position(self, term: Term, doc: TopicDocument) -> tuple[float, int]:
        text = " ".join(t for t in self._locations(doc).values() if t)
        starts = [m.start() for m in re.finditer(r"\S+", text)]

        def positions(pattern: re.Pattern) -> list[int]:
            # word number (from 1) of the word where each match begins
            out = []
            for m in pattern.finditer(text):
                lo, hi = 0, len(starts)
                while lo < hi:
                    mid = (lo + hi) // 2
                    if starts[mid] <= m.start():
                        lo = mid + 1
                    else:
                        hi = mid
                out.append(lo)
            return out

        found = [positions(p) for p in term.parts]
        n = min(len(f) for f in found)
        value = 0.0
        for j in range(n):
            at = [f[j] for f in found]
            if term.is_boolean:
                distance = sum(abs(at[i] - at[i - 1]) for i in range(1, len(at))) / (len(at) - 1)
                # two parts matched at the same word would give log(1) = 0; count them as adjacent
                proximity = math.log(max(distance, 1.0) + 1.0)
            else:
                proximity = 1.0
            value += term.weight / (math.log(POSITION_K * min(at) + 1.0) * proximity)
        return value, n
