"""What two pages say beyond their site's template: body features for the pair classifier.

The filter's errors on the real development web are pairs whose menus are translated but whose
bodies are not a translation: menu-only pages (a gallery page with a title and four captions),
boilerplate pages (a form), and Pupsniffer's "partial" pairs (each language version has a body of
its own, on another topic or much shorter). Def. 9 similarity and the length ratio cannot see this,
since the template dominates both pages. So a page's *body* is its lines that are not the site's
template, a template line being one that recurs on many pages of the site (``SiteLines``); without
the site's pages, the lines the two pages share verbatim are taken off instead.

From the two bodies: how long the shorter one is and what share of its page it is (menu-only pages
have almost none); the ratio of their lengths, of their line counts and of their longest lines (a
translation keeps its paragraphs); whether the line lengths follow each other in order (Pearson
correlation of the first lines' lengths: a translation keeps the order of its paragraphs, a body
of its own does not); the share of the body that is identical on both sides (an untranslated
body); and the numbers and capitalized names the two bodies share (a translation keeps them).
"""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from urllib.parse import urlsplit

TEMPLATE_MIN_PAGES = 3  # a line on this many pages of a site (and TEMPLATE_MIN_SHARE of them) is template
TEMPLATE_MIN_SHARE = 0.1
PROFILE_LINES = 40  # lines whose lengths are correlated in order
NUMBER = re.compile(r"\d+")
NAME = re.compile(r"\b[A-ZČĆŠĐŽА-Я][^\W\d_]{2,}")

BODY_FEATURE_NAMES: tuple[str, ...] = (
    "body_shorter_log", "body_share_min", "body_length_log_ratio", "body_lines_ratio", "body_longest_line_ratio",
    "body_profile_correlation", "body_identical_share", "body_number_share", "body_name_share", "body_missing",
)


def page_lines(text: str) -> list[str]:
    """A page's non-empty lines, whitespace collapsed (the stored text keeps one block per line)."""
    return [line for line in (" ".join(raw.split()) for raw in (text or "").splitlines()) if line]


class SiteLines:
    """How many of a site's pages carry each line.

    A pairing site can span several hosts (www.x.rs, en.x.rs, blog.x.rs), and each host has a
    template of its own: a line's share is counted among the pages of the hosts that carry it
    (``host_pages``), not among all the site's pages, or a small host's menu would be read as its
    pages' bodies."""

    def __init__(self, counts: Counter, pages: int, host_pages: dict[str, int] | None = None):
        self.counts, self.pages = counts, pages
        self.host_pages = host_pages  # {line: pages of the hosts it is on}; None: one host

    @classmethod
    def from_texts(cls, texts: Iterable[str]) -> SiteLines:
        """The pages of one host."""
        counts: Counter = Counter()
        pages = 0
        for text in texts:
            pages += 1
            counts.update({line.casefold() for line in page_lines(text)})
        return cls(counts, pages)

    @classmethod
    def from_pages(cls, pages: Iterable[tuple[str, str]]) -> SiteLines:
        """(URL, text) of every page of the site, its hosts told apart."""
        counts: Counter = Counter()
        hosts_of: dict[str, set[str]] = defaultdict(set)
        per_host: Counter = Counter()
        for url, text in pages:
            host = urlsplit(url).hostname or ""
            per_host[host] += 1
            lines = {line.casefold() for line in page_lines(text)}
            counts.update(lines)
            for line in lines:
                hosts_of[line].add(host)
        if len(per_host) <= 1:
            return cls(counts, sum(per_host.values()))
        return cls(counts, sum(per_host.values()),
                   {line: sum(per_host[host] for host in hosts) for line, hosts in hosts_of.items()})

    def is_template(self, line: str) -> bool:
        key = line.casefold()
        pages = self.pages if self.host_pages is None else self.host_pages.get(key, self.pages)
        return self.counts.get(key, 0) >= max(TEMPLATE_MIN_PAGES, math.ceil(TEMPLATE_MIN_SHARE * pages))


def bodies(source_text: str, target_text: str, site: SiteLines | None) -> tuple[list[str], list[str]]:
    source, target = page_lines(source_text), page_lines(target_text)
    if site is not None:
        return [x for x in source if not site.is_template(x)], [x for x in target if not site.is_template(x)]
    shared = {x.casefold() for x in source} & {x.casefold() for x in target}
    return [x for x in source if x.casefold() not in shared], [x for x in target if x.casefold() not in shared]


def ratio(a: float, b: float) -> float:
    return min(a, b) / max(a, b) if max(a, b) > 0 else 0.0


def jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def profile_correlation(a: list[int], b: list[int]) -> float:
    """Pearson correlation of the two bodies' line lengths, line by line in order (0 when undefined)."""
    k = min(len(a), len(b), PROFILE_LINES)
    if k < 3:
        return 0.0
    x, y = a[:k], b[:k]
    mx, my = sum(x) / k, sum(y) / k
    sx = math.sqrt(sum((v - mx) ** 2 for v in x))
    sy = math.sqrt(sum((v - my) ** 2 for v in y))
    if sx == 0 or sy == 0:
        return 0.0
    return sum((u - mx) * (v - my) for u, v in zip(x, y)) / (sx * sy)


def body_features(source_text: str, target_text: str, site: SiteLines | None = None,
                  body_lines: tuple[list[str], list[str]] | None = None) -> dict[str, float]:
    """BODY_FEATURE_NAMES of one pair of page texts (``site``: the site's line counts, when known;
    ``body_lines``: the two bodies, when the caller has taken them out already)."""
    a, b = body_lines if body_lines is not None else bodies(source_text, target_text, site)
    if not a or not b:
        return {**{name: 0.0 for name in BODY_FEATURE_NAMES}, "body_missing": 1.0}
    chars = [sum(map(len, a)), sum(map(len, b))]
    totals = [max(1, len(source_text)), max(1, len(target_text))]
    identical = {x.casefold() for x in a} & {x.casefold() for x in b}
    identical_chars = min(sum(len(x) for x in a if x.casefold() in identical),
                          sum(len(x) for x in b if x.casefold() in identical))
    joined = ["\n".join(a), "\n".join(b)]
    return {
        "body_shorter_log": math.log1p(min(chars)),
        "body_share_min": min(chars[0] / totals[0], chars[1] / totals[1]),
        "body_length_log_ratio": abs(math.log((chars[0] + 1) / (chars[1] + 1))),
        "body_lines_ratio": ratio(len(a), len(b)),
        "body_longest_line_ratio": ratio(max(map(len, a)), max(map(len, b))),
        "body_profile_correlation": profile_correlation([len(x) for x in a], [len(x) for x in b]),
        "body_identical_share": identical_chars / min(chars),
        "body_number_share": jaccard(*(set(NUMBER.findall(t)) for t in joined)),
        "body_name_share": jaccard(*({w.casefold() for w in NAME.findall(t)} for t in joined)),
        "body_missing": 0.0,
    }
