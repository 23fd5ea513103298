"""Sentence alignment of two bodies: how much of each paragraph has a counterpart on the other side.

Pure module (no Django). The filter's body check (evaluation/pairing/body_coverage.py) reads two
bodies through a dictionary: word coverage as a bag, and lines aligned one to one in order. An
*adapted* translation fails both: its sentences are loosely worded (the dictionary finds a third of
each), split or merged differently, and its sections may come in another order (an organisation's
pages adapted per language, a long literary page). What it keeps is the shape of the text and its
anchors. So here, as in Gale and Church's length-based alignment with lexical anchors:

* each body line (a block of the page: its markup's paragraphs, headings and list items) is cut into
  sentences, the *units*; each unit keeps its length in characters (Cyrillic read as Latin), its
  *shape* (a heading or label: short and unpunctuated; a list item; a sentence) and its *anchors*:
  numbers (prices, years, phone numbers), names (capitalised words inside a sentence, folded to
  Latin without diacritics, so "Земун", "Zemuna" and "Zemun" meet), e-mail and web addresses;
* two groups of units (one or two on each side: a bead, 1–1, 1–2, 2–1) are *linked* by the words
  they translate (the bilingual dictionary's stems, and cognates: "restoran"/"restaurant",
  "fotografija"/"photography" share their first letters once spelling is folded) and by the
  anchors they share; the link is weighed by how well their lengths agree (the Gale–Church ratio,
  the two bodies' overall ratio expected) and whether their shapes agree (a heading with a heading);
* a dynamic program finds the monotone chain of beads with the most evidence (a bead counts
  ``(evidence − MIN_EVIDENCE) × its characters``; units left out cost nothing), and the units
  between two linked beads are aligned by length, as Gale–Church align between anchors, when the
  gap is short on both sides and its two lengths agree;
* sections moved elsewhere: the program runs again over the units left unaligned (up to PASSES
  times), so a paragraph moved from the top to the bottom is found in the second pass.

The score is the share of the two bodies' characters in aligned units, in [0, 1]: near 1 for a
page translated sentence by sentence, high for an adapted one whose paragraphs each say what their
counterpart says, near 0 for a page of its own (on the same site and topic, with the same template
taken off). ``paragraphs`` also says, per body line, the share of its characters aligned.
"""
from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from crawlweb.language.transliterate import cyrillic_to_latin
from evaluation.bodies.lexicon import WORD_CACHE_SIZE, Lexicon, stem

MAX_UNITS = 300  # units aligned per body (the program is MAX_UNITS² cells, a few numpy rows each)
MIN_EVIDENCE = 0.35  # a bead whose weighed evidence is under this counts against its chain
PASSES = 3  # the program's runs: the second and third over the units the runs before left unaligned
MOVED_EVIDENCE = 0.0  # ...whose beads need this much more evidence (a moved section is no chance match)
GAP_UNITS = 3  # at most this many units on each side between two linked beads are aligned by length
GAP_MIN_AGREEMENT = 0.45  # ... when their lengths agree at least this much (length_agreement)
LENGTH_SIGMA = 0.55  # spread of log(length ratio) of a translated unit pair around the bodies' own ratio
LENGTH_SMOOTHING = 12  # characters added to both lengths: short units' ratios say little
MERGE_FACTOR = 1.0  # a 2–1 or 1–2 bead's evidence times this (Gale–Church: merges are rarer than 1–1)
SHAPE_MISMATCH = 0.7  # a heading linked with a sentence: its evidence times this
COGNATE_LETTERS = 4  # a cognate: the same first letters once spelling is folded, of words this long or longer + 1
SENTENCE_END = re.compile(r"(?<=[.!?…])\s+(?=[\"'„“«(]?[A-ZČĆŠĐŽА-ЯЂЈЉЊЋЏ0-9])")
TOKEN = re.compile(r"[^\W_]+(?:[.,:/-][^\W_]+)*|[^\s]")
WORD = re.compile(r"[^\W\d_]{4,}")
NUMBER = re.compile(r"\d+(?:[.,:/-]\d+)*")
ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:https?://|www\.)\S+", re.IGNORECASE)
LEXICAL_PRIOR = 1.0  # known words added to a bead's count: one word of one found says little
ANCHOR_REPEAT_POWER = 1.0  # an anchor or cognate on k units of the busier body counts 1 / k ** this
DISTINCT_POWER = 2.0  # a bead's evidence times (its evidence / the best its units reach) ** this
HEADING_MAX = 70  # characters: a longer line without final punctuation is still a sentence
ALIGNMENT_SCORE_FEATURE_NAMES: tuple[str, ...] = ("alignment_score", "alignment_paragraphs", "alignment_missing")


@dataclass(frozen=True)
class Unit:
    paragraph: int  # the body line it comes from
    length: int
    shape: str  # "heading", "item" or "text"
    terms: frozenset[tuple[str, str | None]]  # (lexicon stem, cognate key) of each of its words
    anchors: frozenset[str]  # numbers, names, addresses


@dataclass
class Alignment:
    score: float  # aligned characters / all characters of both bodies
    paragraphs: float  # share of body lines (of both sides) at least half aligned
    beads: list[tuple[tuple[int, ...], tuple[int, ...], str]] = field(default_factory=list)  # units, "link" / "length"
    paragraph_shares: tuple[list[float], list[float]] = ((), ())  # per body line: the share of it aligned
    units: tuple[int, int] = (0, 0)
    linked: int = 0  # beads linked by words or anchors (not only by length)


@functools.lru_cache(maxsize=WORD_CACHE_SIZE)
def fold(word: str) -> str:
    """Latin letters without diacritics, lower case ("Земун" → "zemun", "Šabac" → "sabac")."""
    text = cyrillic_to_latin(word.casefold()).replace("đ", "dj")
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


_COGNATE_SPELLING = (("ph", "f"), ("th", "t"), ("ch", "k"), ("ck", "k"), ("qu", "kv"), ("x", "ks"), ("w", "v"),
                     ("y", "i"), ("c", "k"), ("z", "s"), ("dj", "d"), ("j", "i"))


@functools.lru_cache(maxsize=WORD_CACHE_SIZE)  # a site's pages repeat their words
def cognate_key(word: str) -> str | None:
    """The first COGNATE_LETTERS letters of a word of more than COGNATE_LETTERS letters, spelling folded
    alike in both languages ("kompanija", "company" → "komp"; "fotografija", "photography" → "foto";
    "rezervacija", "reservation" → "rese")."""
    folded = fold(word)
    if len(folded) <= COGNATE_LETTERS:
        return None
    for written, said in _COGNATE_SPELLING:
        folded = folded.replace(written, said)
    return folded[:COGNATE_LETTERS] if len(folded) > COGNATE_LETTERS else None


def shape_of(line: str) -> str:
    stripped = line.strip()
    if stripped[:1] in "•·-–—*►▪●✓✔" or re.match(r"^\d{1,2}[.)]\s", stripped):
        return "item"
    if len(stripped) <= HEADING_MAX and stripped[-1:] not in ".!?…:;":
        return "heading"
    return "text"


def sentences(line: str) -> list[str]:
    return [part for part in SENTENCE_END.split(line) if part.strip()]


def names_in(sentence: str) -> set[str]:
    """Capitalised words that do not open the sentence, folded (a sentence's first word is capitalised
    in either language; a name wherever it stands)."""
    tokens = [t for t in TOKEN.findall(sentence)]
    out = set()
    for i, token in enumerate(tokens):
        if i > 0 and token[:1].isupper() and len(token) >= 3 and not token.isdigit() and tokens[i - 1][:1].isalnum():
            out.add("name:" + fold(token)[:8])
    return out


def units_of(lines: Sequence[str]) -> list[Unit]:
    """A body's units: its lines cut into sentences (MAX_UNITS at most)."""
    out: list[Unit] = []
    for number, line in enumerate(lines):
        shape = shape_of(line)
        for sentence in sentences(line):
            latin = cyrillic_to_latin(sentence)
            words = WORD.findall(latin)
            anchors = {"num:" + n for n in NUMBER.findall(latin) if len(n) >= 2}  # one digit: list numbering
            anchors |= {"at:" + a.casefold().rstrip(".,;") for a in ADDRESS.findall(latin)}
            anchors |= names_in(latin)
            out.append(Unit(number, len(latin.strip()), shape, frozenset((stem(w), cognate_key(w)) for w in words),
                            frozenset(anchors)))
            if len(out) >= MAX_UNITS:
                return out
    return out


def length_agreement(a: float, b: float, ratio: float = 1.0) -> float:
    """exp(−z²/2), z the log of b to ratio·a (smoothed) over LENGTH_SIGMA: 1 for lengths as expected."""
    z = math.log((b + LENGTH_SMOOTHING) / (ratio * a + LENGTH_SMOOTHING)) / LENGTH_SIGMA
    return math.exp(-z * z / 2)


def _links(a: list[Unit], b: list[Unit], lexicon: Lexicon | None) -> tuple[np.ndarray, ...]:
    """Per unit pair: (A's words with a counterpart in B's unit, B's words with one in A's unit, shared
    anchors), and per unit: words that could have one (known to the dictionary or a cognate of a word
    of the other body), anchors."""
    forward = lexicon.forward if lexicon is not None else {}
    backward = lexicon.backward if lexicon is not None else {}
    hits_ab, base_a = _hits(a, b, forward)
    hits_ba, base_b = _hits(b, a, backward)
    holders: dict[str, list[int]] = defaultdict(list)
    for j, unit in enumerate(b):
        for anchor in unit.anchors:
            holders[anchor].append(j)
    in_a: dict[str, int] = defaultdict(int)
    for unit in a:
        for anchor in unit.anchors:
            in_a[anchor] += 1
    shared = np.zeros((len(a), len(b)))
    for i, unit in enumerate(a):
        for anchor in unit.anchors:
            found = holders.get(anchor, ())
            # an anchor on many units of a body ("by Ivana Simić" above every news item) links each
            # of them with every other: it counts 1 / (the units that carry it on the busier side)
            for j in found:
                shared[i, j] += 1 / max(in_a[anchor], len(found)) ** ANCHOR_REPEAT_POWER
    anchors_a = np.array([len(u.anchors) for u in a], dtype=float)
    anchors_b = np.array([len(u.anchors) for u in b], dtype=float)
    return hits_ab, hits_ba.T, base_a, base_b, shared, anchors_a, anchors_b


def _hits(rows: list[Unit], columns: list[Unit], dictionary: dict[str, set[str]]) -> tuple[np.ndarray, np.ndarray]:
    """hits[i, j]: how many of row unit i's words the dictionary or a cognate finds in column unit j;
    base[i]: row unit i's words the dictionary knows or that have a cognate in the other body. A word
    cognate (not a dictionary word) found on k units of either body counts 1 / k."""
    word_holders: dict[str, set[int]] = defaultdict(set)
    cognate_holders: dict[str, set[int]] = defaultdict(set)
    for j, unit in enumerate(columns):
        for word, key in unit.terms:
            word_holders[word].add(j)
            if key:
                cognate_holders[key].add(j)
    in_rows: dict[tuple[str, str | None], int] = defaultdict(int)
    for unit in rows:
        for term in unit.terms:
            in_rows[term] += 1
    # each distinct word once: the columns it is found in, and how much it counts there
    found_in: dict[tuple[str, str | None], tuple[np.ndarray, np.ndarray] | None] = {}
    for term in in_rows:
        word, key = term
        cognates = cognate_holders.get(key, ()) if key else ()
        if word not in dictionary and not cognates:
            found_in[term] = None  # a word that cannot be found: not counted
            continue
        # a cognate on many units (a name above every news item) links each with every other
        weights = dict.fromkeys(cognates, 1 / max(in_rows[term], len(cognates)) ** ANCHOR_REPEAT_POWER)
        for translation in dictionary.get(word, ()):
            weights.update(dict.fromkeys(word_holders.get(translation, ()), 1.0))
        found_in[term] = (np.fromiter(weights, dtype=int, count=len(weights)),
                          np.fromiter(weights.values(), dtype=float, count=len(weights)))
    hits = np.zeros((len(rows), len(columns)))
    base = np.zeros(len(rows))
    at_rows, at_columns, at_weights = [], [], []
    for i, unit in enumerate(rows):
        for term in unit.terms:
            found = found_in[term]
            if found is not None:
                base[i] += 1
                at_rows.append(np.full(len(found[0]), i))
                at_columns.append(found[0])
                at_weights.append(found[1])
    if at_rows:
        np.add.at(hits, (np.concatenate(at_rows), np.concatenate(at_columns)), np.concatenate(at_weights))
    return hits, base


def align(a_lines: Sequence[str], b_lines: Sequence[str], lexicon: Lexicon | None = None) -> Alignment:
    """The alignment of two bodies (``a_lines`` in the lexicon's first language: lexicon.read_from)."""
    a, b = units_of(a_lines), units_of(b_lines)
    if not a or not b:
        return Alignment(0.0, 0.0, units=(len(a), len(b)))
    len_a = np.array([u.length for u in a], dtype=float)
    len_b = np.array([u.length for u in b], dtype=float)
    ratio = min(1.5, max(1 / 1.5, len_b.sum() / max(1.0, len_a.sum())))
    hits_ab, hits_ba, base_a, base_b, shared, anchors_a, anchors_b = _links(a, b, lexicon)
    shapes_a = [u.shape for u in a]
    shapes_b = [u.shape for u in b]
    aligned_a = np.zeros(len(a), dtype=bool)
    aligned_b = np.zeros(len(b), dtype=bool)
    beads: list[tuple[tuple[int, ...], tuple[int, ...], str]] = []
    linked = 0
    for run in range(PASSES):
        rows = np.flatnonzero(~aligned_a)
        cols = np.flatnonzero(~aligned_b)
        if not len(rows) or not len(cols):
            break
        chain = _best_chain(rows, cols, len_a, len_b, ratio, hits_ab, hits_ba, base_a, base_b, shared,
                            anchors_a, anchors_b, shapes_a, shapes_b,
                            MIN_EVIDENCE if run == 0 else MIN_EVIDENCE + MOVED_EVIDENCE)
        if not chain:
            break
        linked += len(chain)
        for bead in chain:
            aligned_a[list(bead[0])] = True
            aligned_b[list(bead[1])] = True
            beads.append((bead[0], bead[1], "link"))
        for gap_a, gap_b in _gaps(chain, rows, cols):
            if (0 < len(gap_a) <= GAP_UNITS and 0 < len(gap_b) <= GAP_UNITS
                    and length_agreement(len_a[gap_a].sum(), len_b[gap_b].sum(), ratio) >= GAP_MIN_AGREEMENT):
                aligned_a[gap_a] = True
                aligned_b[gap_b] = True
                beads.append((tuple(int(i) for i in gap_a), tuple(int(j) for j in gap_b), "length"))
    total = len_a.sum() + len_b.sum()
    score = float((len_a[aligned_a].sum() + len_b[aligned_b].sum()) / total) if total else 0.0
    shares = (_paragraph_shares(a, len_a, aligned_a, len(a_lines)),
              _paragraph_shares(b, len_b, aligned_b, len(b_lines)))
    counted = [s for side in shares for s in side if s is not None]
    paragraphs = sum(s >= 0.5 for s in counted) / len(counted) if counted else 0.0
    return Alignment(score, paragraphs, sorted(beads), ([s for s in shares[0] if s is not None],
                                                        [s for s in shares[1] if s is not None]),
                     (len(a), len(b)), linked)


def _paragraph_shares(units: list[Unit], lengths: np.ndarray, aligned: np.ndarray, lines: int) -> list:
    done, whole = np.zeros(lines), np.zeros(lines)
    for unit, length, is_aligned in zip(units, lengths, aligned):
        whole[unit.paragraph] += length
        done[unit.paragraph] += length if is_aligned else 0.0
    return [float(d / w) if w else None for d, w in zip(done, whole)]


def _gaps(chain, rows: np.ndarray, cols: np.ndarray):
    """The runs of this pass's units between consecutive beads of the chain (on each side)."""
    row_at = {int(r): k for k, r in enumerate(rows)}
    col_at = {int(c): k for k, c in enumerate(cols)}
    for before, after in zip(chain, chain[1:]):
        start_a, end_a = row_at[before[0][-1]] + 1, row_at[after[0][0]]
        start_b, end_b = col_at[before[1][-1]] + 1, col_at[after[1][0]]
        yield rows[start_a:end_a], cols[start_b:end_b]


def _best_chain(rows, cols, len_a, len_b, ratio, hits_ab, hits_ba, base_a, base_b, shared, anchors_a, anchors_b,
                shapes_a, shapes_b, min_evidence: float) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The monotone chain of beads (1–1, 1–2, 2–1 over the given units) with the most weighed evidence."""
    n, m = len(rows), len(cols)
    ha = hits_ab[np.ix_(rows, cols)]
    hb = hits_ba[np.ix_(rows, cols)]
    sh = shared[np.ix_(rows, cols)]
    la, lb = len_a[rows], len_b[cols]
    ba, bb = base_a[rows], base_b[cols]
    aa, ab = anchors_a[rows], anchors_b[cols]
    codes = {"heading": 0, "item": 1, "text": 2}
    shape_rows = np.array([codes[shapes_a[r]] for r in rows])
    shape_cols = np.array([codes[shapes_b[c]] for c in cols])
    same_shape = np.where(shape_rows[:, None] == shape_cols[None, :], 1.0, SHAPE_MISMATCH)

    def weighed(h_a, h_b, s, l_a, l_b, k_a, k_b, n_a, n_b, shape):
        """The beads' evidence (words and anchors) weighed by their length and shape agreement."""
        words = np.minimum(h_a, k_a) + np.minimum(h_b, k_b)
        lexical = words / (k_a + k_b + LEXICAL_PRIOR)
        anchored = np.divide(2 * s, n_a + n_b, out=np.zeros_like(s), where=(n_a + n_b) > 0)
        evidence = 1 - (1 - np.minimum(1.0, lexical)) * (1 - np.minimum(1.0, anchored))
        z = np.log((l_b + LENGTH_SMOOTHING) / (ratio * l_a + LENGTH_SMOOTHING)) / LENGTH_SIGMA
        return evidence * np.exp(-z * z / 2) * shape

    w11 = weighed(ha, hb, sh, la[:, None], lb[None, :], ba[:, None], bb[None, :], aa[:, None], ab[None, :], same_shape)
    w21 = w12 = None
    if n > 1:  # rows i-1, i with column j
        w21 = weighed(ha[:-1] + ha[1:], hb[:-1] + hb[1:], sh[:-1] + sh[1:], (la[:-1] + la[1:])[:, None],
                      lb[None, :], (ba[:-1] + ba[1:])[:, None], bb[None, :], (aa[:-1] + aa[1:])[:, None],
                      ab[None, :], np.maximum(same_shape[:-1], same_shape[1:]))
    if m > 1:  # row i with columns j-1, j
        w12 = weighed(ha[:, :-1] + ha[:, 1:], hb[:, :-1] + hb[:, 1:], sh[:, :-1] + sh[:, 1:], la[:, None],
                      (lb[:-1] + lb[1:])[None, :], ba[:, None], (bb[:-1] + bb[1:])[None, :], aa[:, None],
                      (ab[:-1] + ab[1:])[None, :], np.maximum(same_shape[:, :-1], same_shape[:, 1:]))
    if DISTINCT_POWER:
        # A unit's counterpart stands out among the other body's units; on a page of its own about the
        # same things, a unit's words are found a little everywhere. Each bead's evidence is scaled by
        # how it compares with the best its units reach with any unit (1: the best for both).
        best_row = w11.max(axis=1)
        best_col = w11.max(axis=0)
        if w21 is not None:
            best_col = np.maximum(best_col, w21.max(axis=0))
        if w12 is not None:
            best_row = np.maximum(best_row, w12.max(axis=1))

        def distinct(w, rows_best, cols_best):
            top = np.maximum(rows_best, cols_best)
            return w * np.divide(w, top, out=np.zeros_like(w), where=top > 0) ** DISTINCT_POWER

        w11 = distinct(w11, best_row[:, None], best_col[None, :])
        if w21 is not None:
            w21 = distinct(w21, np.maximum(best_row[:-1], best_row[1:])[:, None], best_col[None, :])
        if w12 is not None:
            w12 = distinct(w12, best_row[:, None], np.maximum(best_col[:-1], best_col[1:])[None, :])

    def value(w, l_a, l_b):
        return np.where(w >= min_evidence, (w - min_evidence) * (l_a + l_b), -np.inf)

    v11 = value(w11, la[:, None], lb[None, :])
    v21, v12 = np.full((n, m), -np.inf), np.full((n, m), -np.inf)
    if w21 is not None:
        v21[1:] = value(w21 * MERGE_FACTOR, (la[:-1] + la[1:])[:, None], lb[None, :])
    if w12 is not None:
        v12[:, 1:] = value(w12 * MERGE_FACTOR, la[:, None], (lb[:-1] + lb[1:])[None, :])
    # best[i][j]: the best chain over the first i rows and j columns. Row by row: a bead ending at (i, j),
    # or row i left out (best[i-1][j]); then column j left out (best[i][j-1]) as a running maximum.
    best = np.zeros((n + 1, m + 1))
    move = np.zeros((n + 1, m + 1), dtype=np.int8)  # -1: column left out, 0: row left out, 1: 1–1, 2: 2–1, 3: 1–2
    nothing = np.full(m, -np.inf)
    for i in range(1, n + 1):
        candidates = np.stack([
            best[i - 1, 1:],
            best[i - 1, :-1] + v11[i - 1],
            (best[i - 2, :-1] + v21[i - 1]) if i > 1 else nothing,
            np.concatenate(([-np.inf], best[i - 1, :-2] + v12[i - 1, 1:])) if m > 1 else nothing,
        ])
        choice = candidates.argmax(axis=0)
        row = np.concatenate(([0.0], candidates[choice, np.arange(m)]))
        running = np.maximum.accumulate(row)
        move[i, 1:] = np.where(running[1:] > row[1:], -1, choice)
        best[i] = running
    return _trace(move, rows, cols)


def _trace(move: np.ndarray, rows, cols) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    i, j = move.shape[0] - 1, move.shape[1] - 1
    chain = []
    while i > 0 and j > 0:
        step = move[i, j]
        if step == -1:
            j -= 1
        elif step == 0:
            i -= 1
        elif step == 1:
            chain.append(((int(rows[i - 1]),), (int(cols[j - 1]),)))
            i, j = i - 1, j - 1
        elif step == 2:
            chain.append(((int(rows[i - 2]), int(rows[i - 1])), (int(cols[j - 1]),)))
            i, j = i - 2, j - 1
        else:
            chain.append(((int(rows[i - 1]),), (int(cols[j - 2]), int(cols[j - 1]))))
            i, j = i - 1, j - 2
    return chain[::-1]


def alignment_score(lexicon: Lexicon | None, a_lines: Sequence[str], b_lines: Sequence[str]) -> float:
    """align(...).score with ``a_lines`` in the lexicon's first language."""
    return align(a_lines, b_lines, lexicon).score


def alignment_score_features(lexicon: Lexicon | None, a_lines: Sequence[str], b_lines: Sequence[str]
                             ) -> dict[str, float]:
    """ALIGNMENT_SCORE_FEATURE_NAMES of two bodies, read in the order whose dictionary knows more of their
    words (as the other lexicon features: the pages' tags are not trusted); "missing" when a body is empty."""
    if not a_lines or not b_lines:
        return {"alignment_score": 0.0, "alignment_paragraphs": 0.0, "alignment_missing": 1.0}
    if lexicon is not None:
        as_given = sum(stem(w) in lexicon.forward for line in a_lines for w in WORD.findall(line))
        swapped = sum(stem(w) in lexicon.forward for line in b_lines for w in WORD.findall(line))
        if swapped > as_given:
            a_lines, b_lines = b_lines, a_lines
    found = align(a_lines, b_lines, lexicon)
    return {"alignment_score": found.score, "alignment_paragraphs": found.paragraphs, "alignment_missing": 0.0}
