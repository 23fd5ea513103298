"""Bilingual URL pairing patterns and their credibility (Pupsniffer Def. 1–5).

Candidate generation never compares all U×U′ URL pairs.  Each URL is indexed
under hash keys of "its unit set minus one unit" (and of its full set, for the ε
unit), in three scopes: the path set (file-name set held fixed), the file-name
set (path set held fixed) and their union.  A set hash is the XOR of per-unit
hashes, so each key costs O(1) and a URL with m units costs O(m): a site of n
URLs costs about n × m index insertions.  Only URLs sharing a key are compared,
and every hash hit is verified on the real sets (hash collisions cannot make a
false pattern).

Buckets holding more than ``max_bucket_pairs`` source×target combinations are
skipped (counted in ``stats.skipped_buckets``): such a remainder is a generic
skeleton such as {html} left after removing each page's own slug, and every pair
in it would yield a pattern of frequency ~1 (⟨kontakt, about⟩).  The cap keeps the
cost linear; ``max_bucket_pairs=None`` gives the exact Def. 1 count (quadratic
worst case).
"""
from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .records import EPSILON, DEFAULT_LANGUAGES, Pattern, base_language, check_languages
from .units import UrlUnits, url_units

SCOPES = ("path", "file", "union")
_SALT = {scope: hash(("scope", scope)) for scope in SCOPES}
MAX_EXAMPLES = 3


@dataclass
class MiningStats:
    """Operation counters, so tests can assert linear cost without timing."""

    urls: int = 0
    index_insertions: int = 0  # keys computed: stored for source URLs, looked up for target URLs
    comparisons: int = 0  # source×target entries examined in shared buckets
    skipped_buckets: int = 0
    hash_collisions: int = 0


@dataclass
class PatternStats:
    pattern: Pattern
    pairs: set[tuple[str, str]] = field(default_factory=set)  # (source_url, target_url)
    scopes: Counter = field(default_factory=Counter)
    local_credibility: float = 0.0  # Def. 3, C(k, w)

    @property
    def frequency(self) -> int:  # Def. 2, p(k, w)
        return len(self.pairs)

    @property
    def pages_matched(self) -> int:  # N(k, w) = 2·p(k, w)
        return 2 * len(self.pairs)

    def examples(self, n: int = MAX_EXAMPLES) -> list[tuple[str, str]]:
        return sorted(self.pairs)[:n]


@dataclass
class SitePatterns:
    site: str
    n_pages: int  # |w|
    patterns: dict[Pattern, PatternStats]
    stats: MiningStats
    languages: tuple[str, str] = DEFAULT_LANGUAGES

    @property
    def credibility(self) -> float:
        """Def. 5, site credibility C(w) = max_k C(k, w)."""
        return max((p.local_credibility for p in self.patterns.values()), default=0.0)

    def ranked(self) -> list[PatternStats]:
        return sorted(self.patterns.values(), key=lambda p: (-p.local_credibility, p.pattern))


@dataclass
class GlobalPattern:
    pattern: Pattern
    credibility: float  # Def. 4, normalized: Σ (N(k,wᵢ)/N)·C(k,wᵢ)
    credibility_unnormalized: float  # Σ N(k,wᵢ)·C(k,wᵢ), the method's scale for θ
    sites: int
    frequency: int  # Σ p(k, wᵢ)
    examples: list[tuple[str, str]] = field(default_factory=list)


_HASHES: dict[str, tuple[int, int, int]] = {}


def _unit_hashes(unit: str) -> tuple[int, int, int]:
    """Hashes of a unit as a path unit, a file-name unit and a union unit (memoized:
    section names and words repeat across a site)."""
    h = _HASHES.get(unit)
    if h is None:
        if len(_HASHES) > 1_000_000:
            _HASHES.clear()
        h = _HASHES[unit] = (hash(("p", unit)), hash(("f", unit)), hash(("u", unit)))
    return h


def _keys(units: UrlUnits, scopes=SCOPES) -> list[tuple[int, str, str]]:
    """(hash key, scope, removed unit) for every "set minus one unit" of a URL, plus
    the full set (removed unit ε).  Set hash = XOR of unit hashes, so removing a unit
    is one XOR."""
    hd = hash(("domain", units.domain))
    memo = _HASHES
    path_h = [(x, (memo.get(x) or _unit_hashes(x))[0]) for x in units.path]
    file_h = [(y, (memo.get(y) or _unit_hashes(y))[1]) for y in units.file]
    union_h = [(z, (memo.get(z) or _unit_hashes(z))[2]) for z in units.union]
    tagged = hd
    for _, h in path_h:
        tagged ^= h
    for _, h in file_h:
        tagged ^= h
    hu = hd
    for _, h in union_h:
        hu ^= h
    keys = []
    if "path" in scopes:
        base = tagged ^ _SALT["path"]
        keys.append((base, "path", EPSILON))
        keys += [(base ^ h, "path", x) for x, h in path_h]
    if "file" in scopes:
        base = tagged ^ _SALT["file"]
        keys.append((base, "file", EPSILON))
        keys += [(base ^ h, "file", y) for y, h in file_h]
    if "union" in scopes:
        base = hu ^ _SALT["union"]
        keys.append((base, "union", EPSILON))
        keys += [(base ^ h, "union", z) for z, h in union_h]
    return keys


def _rest(units: UrlUnits, scope: str, removed: str):
    """The real remainder u − {t} in one scope, to verify a hash hit."""
    if scope == "path":
        return (units.domain, units.path - {removed}, units.file)
    if scope == "file":
        return (units.domain, units.path, units.file - {removed})
    return (units.domain, units.union - {removed})


def _index(urls: Iterable[str], scopes, stats: MiningStats, only: dict | None = None):
    """key → entry, or list of entries on a shared key; an entry is (url index, scope, unit).
    With ``only``, keys absent from that index are not stored (nothing to pair with)."""
    index: dict[int, object] = {}
    parsed: list[UrlUnits] = []
    names: list[str] = []
    get = index.get
    for url in urls:
        units = url_units(url)
        i = len(parsed)
        parsed.append(units)
        names.append(url)
        keys = _keys(units, scopes)
        stats.index_insertions += len(keys)
        for key, scope, removed in keys:
            if only is not None and key not in only:
                continue
            entry = (i, scope, removed)
            old = get(key)
            if old is None:
                index[key] = entry
            elif type(old) is list:
                old.append(entry)
            else:
                index[key] = [old, entry]
    stats.urls += len(parsed)
    return index, parsed, names


def _bucket(value) -> list:
    return value if type(value) is list else [value]


def mine_pairs(source_urls: Iterable[str], target_urls: Iterable[str], *,
               scopes=SCOPES, max_bucket_pairs: int | None = 1024,
               stats: MiningStats | None = None) -> tuple[dict[Pattern, PatternStats], MiningStats]:
    """Def. 1: every pattern ⟨t, t′⟩ with the U×U′ pairs it matches (u − {t} = u′ − {t′})."""
    unknown = set(scopes) - set(SCOPES)
    if unknown:
        raise ValueError(f"unknown scope(s) {sorted(unknown)}; use {SCOPES}")
    stats = stats or MiningStats()
    gc_was_enabled = gc.isenabled()
    gc.disable()  # the index is millions of small acyclic tuples: cyclic GC passes only cost time
    try:
        src_index, src_units, src_names = _index(source_urls, scopes, stats)
        tgt_index, tgt_units, tgt_names = _index(target_urls, scopes, stats, only=src_index)
    finally:
        if gc_was_enabled:
            gc.enable()
    found: dict[Pattern, PatternStats] = {}
    for key in list(tgt_index):
        src_bucket, tgt_bucket = _bucket(src_index[key]), _bucket(tgt_index[key])
        if max_bucket_pairs is not None and len(src_bucket) * len(tgt_bucket) > max_bucket_pairs:
            stats.skipped_buckets += 1
            continue
        for i, scope, t in src_bucket:
            for j, scope2, t2 in tgt_bucket:
                stats.comparisons += 1
                if t == t2 or scope != scope2:
                    continue  # equal units: the two URLs have the same unit set, not a pattern
                if _rest(src_units[i], scope, t) != _rest(tgt_units[j], scope, t2):
                    stats.hash_collisions += 1
                    continue
                pattern = (t, t2)
                entry = found.get(pattern)
                if entry is None:
                    entry = found[pattern] = PatternStats(pattern)
                entry.pairs.add((src_names[i], tgt_names[j]))
                entry.scopes[scope] += 1
    return found, stats


def mine_site_patterns(site: str, pages: Mapping[str, str] | Iterable[tuple[str, str]], *,
                       languages=DEFAULT_LANGUAGES, n_pages: int | None = None,
                       scopes=SCOPES, max_bucket_pairs: int | None = 1024) -> SitePatterns:
    """Mine one site w.  ``pages``: url → language tag (all pages of w, any language).

    Def. 2 p(k, w) = pairs matched; Def. 3 C(k, w) = N(k, w)/|w| with N = 2·p and
    |w| = ``n_pages`` or the number of pages given.
    """
    first, second = check_languages(languages)
    items = list(pages.items()) if isinstance(pages, Mapping) else list(pages)
    source = sorted({url for url, lang in items if base_language(lang) == first})
    target = sorted({url for url, lang in items if base_language(lang) == second})
    size = n_pages if n_pages is not None else len({url for url, _ in items})
    if size <= 0:
        raise ValueError(f"site {site!r} has no pages; |w| must be positive")
    found, stats = mine_pairs(source, target, scopes=scopes, max_bucket_pairs=max_bucket_pairs)
    for entry in found.values():
        entry.local_credibility = entry.pages_matched / size
    return SitePatterns(site, size, found, stats, (first, second))


def global_credibility(sites: Iterable[SitePatterns]) -> dict[Pattern, GlobalPattern]:
    """Def. 4: C(k) = Σᵢ (N(k,wᵢ)/N)·C(k,wᵢ), N = total pages of all candidate sites."""
    sites = list(sites)
    total_pages = sum(site.n_pages for site in sites)
    result: dict[Pattern, GlobalPattern] = {}
    for site in sites:
        for pattern, entry in site.patterns.items():
            g = result.get(pattern)
            if g is None:
                g = result[pattern] = GlobalPattern(pattern, 0.0, 0.0, 0, 0)
            weighted = entry.pages_matched * entry.local_credibility
            g.credibility_unnormalized += weighted
            g.credibility += weighted / total_pages
            g.sites += 1
            g.frequency += entry.frequency
            if len(g.examples) < MAX_EXAMPLES:
                g.examples += entry.examples(MAX_EXAMPLES - len(g.examples))
    return result


def top_global_patterns(global_patterns: Mapping[Pattern, GlobalPattern], n: int) -> list[GlobalPattern]:
    """The n patterns with the highest global credibility (ties: more sites, then label)."""
    ranked = sorted(global_patterns.values(),
                    key=lambda g: (-g.credibility_unnormalized, -g.sites, g.pattern))
    return ranked[:n]
