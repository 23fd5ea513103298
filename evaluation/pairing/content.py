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

With a bilingual dictionary of the two languages (training.learn.lexicon), what the bodies *say* counts
too: score = (1 − W_LEXICON)·(the score above) + W_LEXICON·c, c the share of each body's dictionary words
translated in the other (the lower of the two directions; 0 below LEXICON_MIN_KNOWN known words), from
``lexicon_threshold`` up, and on a site small enough (ALL_PAIRS_LIMIT) every two pages are compared, not
only those sharing a number or a name (a translated blog post shares its words' meaning before it
shares a name), paired pages with each other too.

On the real development web, this method alone (no URL method, every page of every site) proposes
240 right pairs and 5 wrong (76 % of the translated pairs); with the Croatian–English dictionary,
270 right and 1 wrong (85 %). bench/realweb.py measures it after the URL methods, in a crawl.
"""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from crawlweb.crawler.htmlparse import parse_html
from crawlweb.language.transliterate import cyrillic_to_latin
from training.learn.lexicon import Lexicon, stems
from training.learn.page_body import NUMBER, SiteLines, jaccard, page_lines, profile_correlation, ratio

from .records import CandidatePair, PageRecord, check_languages

W_NUMBERS, W_NAMES, W_LENGTH, W_PROFILE = 0.4, 0.3, 0.15, 0.15
THRESHOLD = 0.25
MAX_PAGES = 500  # unpaired pages per language and site; a bigger site has URL conventions to learn
W_LEXICON = 0.5  # measured on the real web: 0.3 to 0.5 find the most pairs, 0.7 makes more wrong ones
# With the dictionary every two pages are compared, and two leftover pages written in one vocabulary (the
# test web's sentences come from one catalogue) cover each other about 0.45: 0.30 with a weak body score.
LEXICON_THRESHOLD = 0.35
LEXICON_MIN_KNOWN = 5  # fewer known words each way say nothing
ALL_PAIRS_LIMIT = 40_000  # pages of one language × of the other compared all with all (above: the index)
WORD_OR_STOP = re.compile(r"[^\W\d_]{3,}|[.!?:;•|–—-]")  # words of 3+ letters, and what ends a sentence or item


@dataclass(frozen=True)
class Anchors:
    numbers: frozenset[str]
    names: frozenset[str]
    lines: tuple[int, ...]  # the body's line lengths, in order
    stems: frozenset[str] = frozenset()  # the body's words as the lexicon compares them

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
                   frozenset(stems(lines)) if with_stems else frozenset())


def content_score(a: Anchors, b: Anchors, lexicon: Lexicon | None = None) -> float:
    """``a``: a page of the first language, ``b`` of the second (the lexicon's order)."""
    score = (W_NUMBERS * jaccard(a.numbers, b.numbers) + W_NAMES * jaccard(a.names, b.names)
             + W_LENGTH * ratio(a.length, b.length)
             + W_PROFILE * max(0.0, profile_correlation(list(a.lines), list(b.lines))))
    if lexicon is None:
        return score
    forward, backward, known = lexicon.coverage(a.stems, b.stems)
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
    if lexicon is not None and {first, second} != set(lexicon.languages):
        lexicon = None
    pages = list(pages)
    texts = {page.url: _text(page) for page in pages}
    site = site_lines if site_lines is not None else SiteLines.from_texts(texts.values())
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
    if lexicon is not None and lexicon.languages[0] != first:
        lexicon = lexicon.reversed()
    if lexicon is not None:
        threshold = lexicon_threshold
    if lexicon is not None and len(left) * len(right) <= ALL_PAIRS_LIMIT:
        # two paired pages compete too: a paired page matched with its own counterpart leaves the
        # unpaired pages alone (else it could take the unpaired page of its topic from that page's counterpart)
        scores = {(source, target): content_score(left[source], right[target], lexicon)
                  for source in left for target in right}
    else:
        scores = _scores_with_open_pages(left, right, open_left, open_right, lexicon)
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
    """content_score of every pair that shares a number or a name and has an unpaired page on a side."""
    holders: dict[str, dict[str, list[str]]] = {"left": defaultdict(list), "right": defaultdict(list)}
    for side, pages in (("left", left), ("right", right)):
        for url, anchors in pages.items():
            for key in anchors.keys:
                holders[side][key].append(url)
    scores: dict[tuple[str, str], float] = {}
    for source in open_left:
        for target in {url for key in left[source].keys for url in holders["right"].get(key, ())}:
            scores[(source, target)] = content_score(left[source], right[target], lexicon)
    for target in open_right:
        for source in {url for key in right[target].keys for url in holders["left"].get(key, ())}:
            if (source, target) not in scores:
                scores[(source, target)] = content_score(left[source], right[target], lexicon)
    return scores
