"""Method "content": pair the pages no URL method could pair, by what their bodies share.

A site with translated slugs (/o-nama.html ↔ /about-us.html), a language switch that only leads to
the other home page and no hreflang gives the URL methods nothing to work with. A translation still
keeps its original's numbers (prices, dates, phone numbers, sizes), its names (people, places,
products, brands), the order and rough length of its paragraphs, and those survive without a
dictionary.

Per site, among the pages of the pair's two languages that no other method proposed:
- a page's *body* is its lines that are not the site's template (page_body.SiteLines: a line on
  many of the site's pages), so the shared menu and footer do not make every page look alike;
- its *numbers* are the digit runs of its body, its *names* the capitalised words inside a sentence
  (a sentence's first word is capitalised in any language, a name only where it stands), Cyrillic
  read as Latin;
- score = W_NUMBERS·J(numbers) + W_NAMES·J(names) + W_LENGTH·(shorter body / longer body)
  + W_PROFILE·max(0, r), J the Jaccard index of the two pages' sets and r the correlation of their
  body lines' lengths in order (page_body.profile_correlation: a translation keeps its paragraphs);
- pages are matched one-to-one from the best score down (from ``threshold`` up) among all the site's
  pages of the two languages, paired ones included, and only a match of two unpaired pages is
  proposed: a page whose counterpart another method paired is matched with that counterpart (and
  proposes nothing) rather than with the best page left over.
Only pages that share a number or a name are compared (an index from each to its pages), and a site
with more than ``max_pages`` unpaired pages in a language is left alone: the method is for the small
sites whose URLs say nothing. The filter still reads every pair it proposes.

With a bilingual dictionary of the two languages (evaluation.bodies.lexicon), what the bodies *say* counts
too. Pairs are first ranked by (1 − W_LEXICON)·(the score above) + W_LEXICON·c, c the share of each body's
dictionary words translated in the other (the lower of the two directions; 0 below LEXICON_MIN_KNOWN known
words); on a site small enough (ALL_PAIRS_LIMIT) every two pages are compared, not only those sharing a
number or a name (a translated blog post shares its words' meaning before it shares a name), paired pages
with each other too. Then each page's ALIGN_CANDIDATES best-ranked pairs are scored again with the bodies'
aligned share (evaluation.bodies.alignment: their lines aligned in order) in place of c, and matched from
``lexicon_threshold`` up: a site's pages on one topic cover each other almost as well as a page and its
translation (a hotel's blog post and its "about us" page), but they do not align line by line.

On the real development web, this method alone (no URL method, every page of every site, "wrong" a pair
truth does not list) finds 268 of the 316 translated pairs with 10 wrong by word coverage, 281 (89 %)
with 2 wrong with the aligned share. bench/realweb.py measures it after the URL methods, in a crawl.
"""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from crawlweb.crawler.htmlparse import parse_html
from crawlweb.language.transliterate import cyrillic_to_latin
from evaluation.bodies.alignment import ReadLines, aligned_read, read_lines
from evaluation.bodies.lexicon import Lexicon, stems
from evaluation.bodies.page_body import NUMBER, SiteLines, jaccard, page_lines, profile_correlation, ratio

from .recent import RecentResults
from .records import CandidatePair, PageRecord, check_languages

W_NUMBERS, W_NAMES, W_LENGTH, W_PROFILE = 0.4, 0.3, 0.15, 0.15
THRESHOLD = 0.25
MAX_PAGES = 500  # unpaired pages per language and site; a bigger site has URL conventions to learn
W_LEXICON = 0.5  # measured on the real web: 0.3 to 0.5 find the most pairs, 0.7 makes more wrong ones
# With the dictionary a pair's score reads its aligned share; measured alone on the real web, from 0.25 up:
# 281 of the 316 translated pairs and 2 wrong (0.20: 284 and 5; 0.30: 278 and 2).
LEXICON_THRESHOLD = 0.25
LEXICON_MIN_KNOWN = 5  # fewer known words each way say nothing
# Word coverage ranks a page's candidates; the best few on either side are aligned line by line (a site's
# pages on one topic cover each other almost as well as a page and its translation, but do not align).
ALIGN_CANDIDATES = 5
ALL_PAIRS_LIMIT = 40_000  # pages of one language × of the other compared all with all (above: the index)
WORD_OR_STOP = re.compile(r"[^\W\d_]{3,}|[.!?:;•|–—-]")  # words of 3+ letters, and what ends a sentence or item


@dataclass(frozen=True)
class Anchors:
    numbers: frozenset[str]
    names: frozenset[str]
    lines: tuple[int, ...]  # the body's line lengths, in order
    stems: frozenset[str] = frozenset()  # the body's words as the lexicon compares them
    body: tuple[str, ...] = ()  # the body's lines (Cyrillic read as Latin), aligned with the lexicon

    @property
    def length(self) -> int:
        return sum(self.lines)

    @property
    def keys(self) -> set[str]:
        return set(self.numbers) | {"name:" + name for name in self.names}


def names_in(line: str) -> set[str]:
    """Capitalised words that do not open a sentence (or a list item), case-folded."""
    tokens = WORD_OR_STOP.findall(line)
    return {token.casefold() for i, token in enumerate(tokens)
            if token[0].isupper() and i > 0 and tokens[i - 1][0].isalpha()}


def anchors_of(text: str, site: SiteLines | None, with_stems: bool = False) -> Anchors:
    lines = [cyrillic_to_latin(line) for line in page_lines(text) if site is None or not site.is_template(line)]
    return Anchors(frozenset(n for line in lines for n in NUMBER.findall(line)),
                   frozenset(n for line in lines for n in names_in(line)), tuple(len(line) for line in lines),
                   frozenset(stems(lines)) if with_stems else frozenset(), tuple(lines) if with_stems else ())


def anchor_score(a: Anchors, b: Anchors) -> float:
    """What the two bodies share without a dictionary: numbers, names, length, paragraph profile."""
    return (W_NUMBERS * jaccard(a.numbers, b.numbers) + W_NAMES * jaccard(a.names, b.names)
            + W_LENGTH * ratio(a.length, b.length)
            + W_PROFILE * max(0.0, profile_correlation(list(a.lines), list(b.lines))))


class _LinesRead:
    """The bodies' lines as the alignment reads them, each read once for the content_pairs call (a page is
    aligned with up to 2 × ALIGN_CANDIDATES others) and only when a pair is not in the cache."""

    def __init__(self, lexicon: Lexicon):
        self.lexicon = lexicon
        self.read: dict[tuple[bool, tuple[str, ...]], ReadLines] = {}

    def of(self, body: tuple[str, ...], first: bool) -> ReadLines:
        key = (first, body)
        if key not in self.read:
            self.read[key] = read_lines(body, self.lexicon.forward if first else self.lexicon.backward)
        return self.read[key]

    def score(self, a: Anchors, b: Anchors) -> float:
        """The anchor score with the bodies' aligned share (evaluation.bodies.alignment) for the dictionary's part."""
        share, known = aligned_read(self.of(a.body, True), self.of(b.body, False))
        translated = share if share is not None and known >= LEXICON_MIN_KNOWN else 0.0
        return (1 - W_LEXICON) * anchor_score(a, b) + W_LEXICON * translated


# The aligned scores of body pairs this process has compared (a millisecond or more each; a re-scored
# site's pairs were mostly aligned before). Word coverage is not kept: read for all of a site's pairs together
# (content_scores) it costs less than its look-up, and a site compared all with all (40,000 pairs) filled the
# memory with it.
_aligned_seen = RecentResults(100_000)  # ~22 MB


def _aligned_score(a: Anchors, b: Anchors, lexicon: Lexicon, lines: _LinesRead) -> float:
    """lines.score of the two pages, remembered under their bodies (read either way round)."""
    tables, direction = lexicon.tables
    key = (direction, hash(a.body), hash(b.body))
    return _aligned_seen.get(key, lambda: lines.score(a, b), tables)


def best_candidates(scores: dict[tuple[str, str], float], per_page: int) -> set[tuple[str, str]]:
    """The pairs among each page's ``per_page`` best-scored, on either side."""
    ranked: dict[tuple[int, str], list[tuple[float, tuple[str, str]]]] = defaultdict(list)
    for pair, score in scores.items():
        ranked[(0, pair[0])].append((score, pair))
        ranked[(1, pair[1])].append((score, pair))
    return {pair for candidates in ranked.values() for _, pair in sorted(candidates, reverse=True)[:per_page]}


def content_score(a: Anchors, b: Anchors, lexicon: Lexicon | None = None) -> float:
    """``a``: a page of the first language, ``b`` of the second (the lexicon's order)."""
    if lexicon is None:
        return anchor_score(a, b)
    return _with_coverage(anchor_score(a, b), *lexicon.coverage(a.stems, b.stems))


def content_scores(pairs: Iterable[tuple[str, str]], left: dict[str, Anchors], right: dict[str, Anchors],
                   lexicon: Lexicon | None) -> dict[tuple[str, str], float]:
    """content_score of each pair (a URL of ``left``, one of ``right``), the lexicon's coverage of all of them
    read together (Lexicon.coverages: each page's words looked up once, not once per pair)."""
    pairs = list(pairs)
    if lexicon is None:
        return {(source, target): anchor_score(left[source], right[target]) for source, target in pairs}
    covered = lexicon.coverages({url: anchors.stems for url, anchors in left.items()},
                                {url: anchors.stems for url, anchors in right.items()}, pairs)
    return {(source, target): _with_coverage(anchor_score(left[source], right[target]), *covered[(source, target)])
            for source, target in pairs}


def _with_coverage(score: float, forward: float | None, backward: float | None, known: int) -> float:
    translated = min(forward, backward) if known >= LEXICON_MIN_KNOWN else 0.0
    return (1 - W_LEXICON) * score + W_LEXICON * translated


def _text(page: PageRecord) -> str:
    """The page's text one block per line, as a crawl stores it (parsed from its HTML when only that is at hand)."""
    if page.text or not page.html:
        return page.text
    return parse_html(page.html, page.url).text


def content_pairs(pages: Iterable[PageRecord], paired: set[str], *, languages=("en", "sr"),
                  threshold: float = THRESHOLD, max_pages: int = MAX_PAGES,
                  lexicon: Lexicon | None = None, lexicon_threshold: float = LEXICON_THRESHOLD,
                  site_lines: SiteLines | None = None) -> list[CandidatePair]:
    """Method "content" for one site's pages; ``paired``: URLs another method already proposed;
    ``lexicon``: a dictionary of the two languages (used when they are its languages, either way round);
    ``site_lines``: the site's line counts when the caller has them (else counted from ``pages``).

    Pages are matched one-to-one from the best score down among all the site's pages of the two
    languages, paired ones included, and only matches of two unpaired pages are proposed: a page whose
    true counterpart another method has paired is matched with it, not with the best page left over."""
    first, second = check_languages(languages)
    if lexicon is not None:
        lexicon = lexicon.read_from(first, second)
    pages = list(pages)
    unpaired = {page.base_lang for page in pages if page.url not in paired}
    if first not in unpaired or second not in unpaired:  # nothing to propose: no page need be read
        return []
    texts = {page.url: _text(page) for page in pages}
    site = site_lines if site_lines is not None else SiteLines.from_pages(texts.items())
    sides: dict[str, dict[str, Anchors]] = {first: {}, second: {}}
    for page in pages:
        if page.base_lang not in sides or not texts[page.url]:
            continue
        anchors = anchors_of(texts[page.url], site, with_stems=lexicon is not None)
        if anchors.keys or anchors.stems:
            sides[page.base_lang][page.url] = anchors
    left, right = sides[first], sides[second]
    open_left = [url for url in left if url not in paired]
    open_right = {url for url in right if url not in paired}
    if not open_left or not open_right or max(len(open_left), len(open_right)) > max_pages:
        return []
    if lexicon is not None:
        threshold = lexicon_threshold
    if lexicon is not None and len(left) * len(right) <= ALL_PAIRS_LIMIT:
        # two paired pages compete too: a paired page matched with its own counterpart leaves the
        # unpaired pages alone (else it could take the unpaired page of its topic from that page's counterpart)
        scores = content_scores(((source, target) for source in left for target in right), left, right, lexicon)
    else:
        scores = _scores_with_open_pages(left, right, open_left, open_right, lexicon)
    if lexicon is not None:  # each page's best few by word coverage, scored again by aligned lines
        lines = _LinesRead(lexicon)
        scores = {(source, target): _aligned_score(left[source], right[target], lexicon, lines)
                  for source, target in best_candidates(scores, ALIGN_CANDIDATES)}
    out, matched = [], set()
    for (source, target), score in sorted(scores.items(), key=lambda item: (-item[1], item[0])):
        if score < threshold:
            break
        if source in matched or target in matched:
            continue
        matched.update((source, target))  # a paired page takes its best match out of the pool too
        if source in paired or target in paired:
            continue
        a, b = left[source], right[target]
        out.append(CandidatePair(source, target, "content", None, round(score, 4),
                                 evidence=f"content {score:.3f}: {len(a.numbers & b.numbers)} numbers and "
                                          f"{len(a.names & b.names)} names shared"))
    return out


def _scores_with_open_pages(left: dict[str, Anchors], right: dict[str, Anchors], open_left: list[str],
                            open_right: set[str], lexicon: Lexicon | None) -> dict[tuple[str, str], float]:
    """content_scores of every pair that shares a number or a name and has an unpaired page on a side."""
    holders: dict[str, dict[str, list[str]]] = {"left": defaultdict(list), "right": defaultdict(list)}
    for side, pages in (("left", left), ("right", right)):
        for url, anchors in pages.items():
            for key in anchors.keys:
                holders[side][key].append(url)
    pairs: dict[tuple[str, str], None] = {}
    for source in open_left:
        for target in {url for key in left[source].keys for url in holders["right"].get(key, ())}:
            pairs[(source, target)] = None
    for target in open_right:
        for source in {url for key in right[target].keys for url in holders["left"].get(key, ())}:
            pairs[(source, target)] = None
    return content_scores(pairs, left, right, lexicon)
