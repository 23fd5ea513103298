"""A bilingual lexicon: how much of one page's body the other page's body translates.

Pure module. The filter and the body features (page_body) see lengths, numbers and names, not
meaning, so they cannot tell a translated page from Pupsniffer's "partial" pair: a translated
frame around a body of its own (another text on the same topic, often as long, with the same
names). A dictionary can: of one body's words that the dictionary knows, the share with a
translation among the other body's words, read in both directions (a partial pair is usually
low one way at least).

Dictionaries are FreeDict's in the dictd format (Debian's dict-freedict-* packages):
``NAME.index`` has a line "headword TAB offset TAB length" per entry (offset and length in
base 64), ``NAME.dict.dz`` is gzip (dictzip) text whose slice is the entry: the headword line,
then lines of translations. FreeDict's Serbian–English dictionary has about 400 words, so the
default for Serbian is Croatian–English (about 60,000 entries each way): every word on both
sides goes through one fold (Cyrillic to Latin, ijekavian "ije"/"je" to "e", no diacritics), so
Serbian "vreme", "време" and Croatian "vrijeme" are one word.

Words are compared by their first STEM_LETTERS letters after that fold and one common ending taken
off: a crude stem that serves an inflected language (masaža, masaže, masažu) and English endings
(massage, massages) alike. Measured on the 62-site real development web, a Serbian page's listed
counterpart is the English page of its site whose body the dictionary covers best for 285 of 307
translated pairs.
"""
from __future__ import annotations

import functools
import gzip
import math
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping, Set
from typing import TypeVar
from dataclasses import dataclass
from pathlib import Path

from crawlweb.language.transliterate import cyrillic_to_latin

STEM_LETTERS = 5
# Words a per-word cache holds (here and in sentence_alignment): words repeat as Zipf says, so 20,000 hold
# the common ones; 100,000 per cache held ~17 MB each in a score worker over a long crawl's vocabulary.
WORD_CACHE_SIZE = 20_000
# One ending is taken off first, so that short inflected words meet (reka, reku; soba, sobom; price, prices).
ENDINGS = ("ama", "ima", "om", "em", "og", "oj", "ih", "im", "es", "a", "e", "i", "o", "u", "s")
WORD = re.compile(r"[^\W\d_]{4,}")  # shorter words are mostly function words
BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
LEXICON_FEATURE_NAMES: tuple[str, ...] = (
    "lexicon_min_coverage", "lexicon_mean_coverage", "lexicon_known_log", "lexicon_missing",
)


class LexiconError(ValueError):
    """A dictionary file is missing or not in the dictd format."""


@functools.lru_cache(maxsize=WORD_CACHE_SIZE)  # a site's pages repeat their words; a dictionary is read once per process
def stem(word: str) -> str:
    """The fold every word goes through before it is compared (see the module's docstring)."""
    folded = cyrillic_to_latin(word.casefold()).replace("đ", "dj").replace("ije", "e").replace("je", "e")
    folded = "".join(c for c in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(c))
    for ending in ENDINGS:
        if folded.endswith(ending) and len(folded) - len(ending) >= 3:
            folded = folded[:-len(ending)]
            break
    return folded[:STEM_LETTERS]


def stems(lines: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for line in lines:
        out |= line_stems(line)
    return out


@functools.lru_cache(maxsize=8_192)
def line_stems(line: str) -> frozenset[str]:
    """stems of one line. Cached: a page's lines are read again for every pair it is a candidate of (the
    line alignment and the body checks read them line by line). 8,192 lines hold a large site's
    candidates; 50,000 held lines across scorings for ~25 MB of a score worker's RSS."""
    return frozenset(stem(word) for word in WORD.findall(line))


def _base64_number(text: str) -> int:
    number = 0
    for char in text:
        number = number * 64 + BASE64.index(char)
    return number


def read_dictd(base: Path) -> dict[str, set[str]]:
    """{headword stem: stems of its translations} of the dictd dictionary ``base`` (.index + .dict.dz).

    Multi-word headwords are left out (a page's words are compared one by one)."""
    index, data_path = Path(f"{base}.index"), Path(f"{base}.dict.dz")
    for path in (index, data_path):
        if not path.is_file():
            raise LexiconError(f"{path}: no such dictionary file")
    try:
        data = gzip.open(data_path).read()
    except (OSError, EOFError) as error:
        raise LexiconError(f"{data_path}: not a dictzip file ({error})") from error
    entries: dict[str, set[str]] = {}
    with open(index, encoding="utf-8", errors="replace") as lines:
        for number, line in enumerate(lines, 1):
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 3:
                raise LexiconError(f"{index}, line {number}: expected headword, offset and length")
            headword = fields[0]
            if headword.startswith("00database") or " " in headword or not WORD.fullmatch(headword):
                continue
            try:
                start, length = _base64_number(fields[1]), _base64_number(fields[2])
            except ValueError:
                raise LexiconError(f"{index}, line {number}: offset and length must be base 64") from None
            body = data[start:start + length].decode("utf-8", "replace").split("\n")[1:]
            translations = stems(body)
            if translations:
                entries.setdefault(stem(headword), set()).update(translations)
    if not entries:
        raise LexiconError(f"{index}: no one-word entries")
    return entries


K = TypeVar("K")
L = TypeVar("L")


@dataclass(frozen=True)
class Lexicon:
    """Two dictionaries: the first language to the second, and the second to the first."""
    forward: dict[str, set[str]]
    backward: dict[str, set[str]]
    languages: tuple[str, str] = ("sr", "en")  # base language codes: what the pages it reads are in

    @classmethod
    def from_dictd(cls, first_to_second: Path, second_to_first: Path,
                   languages: tuple[str, str] = ("sr", "en")) -> Lexicon:
        return cls(read_dictd(first_to_second), read_dictd(second_to_first), tuple(languages))

    def reversed(self) -> Lexicon:
        return self._reversed

    @functools.cached_property
    def _reversed(self) -> Lexicon:  # one object each way, so what it computes once (_translated_from) is kept
        other = Lexicon(self.backward, self.forward, (self.languages[1], self.languages[0]))
        other.__dict__["_reversed"] = self
        return other

    @property
    def tables(self) -> tuple[tuple[dict, dict], bool]:
        """(its two dictionaries in one order whichever way it is read, whether it reads in that order): what
        a result read with it is remembered under (evaluation.pairing.recent), either way round."""
        ordered = id(self.forward) < id(self.backward)
        return ((self.forward, self.backward) if ordered else (self.backward, self.forward)), ordered

    def read_from(self, first: str, second: str) -> Lexicon | None:
        """This lexicon read from ``first`` into ``second``, or None when those are not its two languages."""
        if {first, second} != set(self.languages):
            return None
        return self if self.languages[0] == first else self.reversed()

    def coverage(self, first: Set[str], second: Set[str]) -> tuple[float | None, float | None, int]:
        """(share of ``first``'s known stems translated in ``second``, the same backwards, known stems)."""
        def share(words: Set[str], other: Set[str], dictionary: dict[str, set[str]]) -> tuple[float | None, int]:
            known = [w for w in words if w in dictionary]
            if not known:
                return None, 0
            return sum(1 for w in known if dictionary[w] & other) / len(known), len(known)

        forward, known_forward = share(first, second, self.forward)
        backward, known_backward = share(second, first, self.backward)
        return forward, backward, min(known_forward, known_backward)

    @functools.cached_property
    def _translated_from(self) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:  # ~12 MB
        """Each dictionary turned round: {a translation: the headwords it translates}, forward's then backward's."""
        reversed_lexicon = self.__dict__.get("_reversed")
        if reversed_lexicon is not None and "_translated_from" in reversed_lexicon.__dict__:
            backward_inverse, forward_inverse = reversed_lexicon._translated_from  # its two, read the other way
            return forward_inverse, backward_inverse
        inverses = []
        for dictionary in (self.forward, self.backward):
            inverse: dict[str, set[str]] = {}
            for headword, translations in dictionary.items():
                for translation in translations:
                    inverse.setdefault(translation, set()).add(headword)
            inverses.append({word: frozenset(headwords) for word, headwords in inverse.items()})
        return inverses[0], inverses[1]

    def coverages(self, firsts: Mapping[K, Set[str]], seconds: Mapping[L, Set[str]], pairs: Iterable[tuple[K, L]]
                  ) -> dict[tuple[K, L], tuple[float | None, float | None, int]]:
        """``coverage(firsts[a], seconds[b])`` of each pair (a, b), for the many pairs of a site's pages: each
        body's known words looked up once, and each body's *reach* (the other language's headwords with a
        translation among its words: ~1,000 for a page of 50 stems) made once and held one body at a time,
        so a pair costs two set intersections instead of a look-up per word."""
        pairs = list(pairs)
        by_first: dict[K, list[L]] = defaultdict(list)
        by_second: dict[L, list[K]] = defaultdict(list)
        for a, b in pairs:
            by_first[a].append(b)
            by_second[b].append(a)
        known_first = {a: frozenset(w for w in firsts[a] if w in self.forward) for a in by_first}
        known_second = {b: frozenset(w for w in seconds[b] if w in self.backward) for b in by_second}
        forward_inverse, backward_inverse = self._translated_from
        covered_forward: dict[tuple[K, L], int] = {}
        for b, firsts_of_b in by_second.items():
            reach = frozenset().union(*(forward_inverse[w] for w in seconds[b] if w in forward_inverse))
            for a in firsts_of_b:
                covered_forward[(a, b)] = len(known_first[a] & reach)
        out: dict[tuple[K, L], tuple[float | None, float | None, int]] = {}
        for a, seconds_of_a in by_first.items():
            reach = frozenset().union(*(backward_inverse[w] for w in firsts[a] if w in backward_inverse))
            known_a = len(known_first[a])
            for b in seconds_of_a:
                known_b = len(known_second[b])
                out[(a, b)] = (covered_forward[(a, b)] / known_a if known_a else None,
                               len(known_second[b] & reach) / known_b if known_b else None, min(known_a, known_b))
        return out


def lexicon_features(lexicon: Lexicon | None, a_lines: list[str], b_lines: list[str]) -> dict[str, float]:
    """LEXICON_FEATURE_NAMES of two bodies, read in the order whose dictionaries know more of their
    words (the pages' language tags are not trusted: "both pages in one language" is one of the
    errors judged, and a loanword makes an English word a headword of the other dictionary too)."""
    a, b = stems(a_lines), stems(b_lines)
    readings = [] if lexicon is None else [lexicon.coverage(a, b), lexicon.coverage(b, a)]
    readings = [(f, w, k) for f, w, k in readings if f is not None and w is not None]
    if not readings:
        return {**{name: 0.0 for name in LEXICON_FEATURE_NAMES}, "lexicon_missing": 1.0}
    forward, backward, known = max(readings, key=lambda r: (r[2], min(r[0], r[1])))
    return {"lexicon_min_coverage": min(forward, backward), "lexicon_mean_coverage": (forward + backward) / 2,
            "lexicon_known_log": math.log1p(known), "lexicon_missing": 0.0}
