"""The crawl's global pattern rows (Def. 4), kept as sums of the site rows' contributions.

A global row holds, for one pattern k, Σᵢ N(k,wᵢ)·C(k,wᵢ), Σᵢ N(k,wᵢ), Σᵢ p(k,wᵢ) and the number of
sites; C(k) divides the first by N as the rows are read (UrlPattern.objects.global_rows).  Scoring one
site changes only the sums of the patterns that site has or had: ``apply_site_change`` adds the
difference of that site's contributions to those rows and touches no other.  Rebuilding every global
row after each site scored made a crawl rewrite its whole pattern table thousands of times (284 MB of
dead rows for 3,625 live ones at 10k pages).  ``rebuild`` recomputes every sum from the site rows (the
crawl-wide pass: it also clears what float rounding added up) and still writes only rows that differ.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from django.db import transaction
from django.db.models import F

from crawlweb.models import Crawl
from crawlweb.services.bulk_rows import update_columns
from evaluation.models import UrlPattern, total_scored_pages
from evaluation.pairing.patterns import MAX_EXAMPLES, GlobalPattern

Key = tuple[str, str]
SUM_FIELDS = ("global_credibility_unnormalized", "pages_matched", "frequency", "sites")


@dataclass
class Sums:
    """One pattern's contribution (a site row) or total (a global row)."""

    weighted: float = 0.0  # Σ N(k,wᵢ)·C(k,wᵢ)
    matched: int = 0       # Σ N(k,wᵢ)
    frequency: int = 0     # Σ p(k,wᵢ)
    sites: int = 0
    examples: list = field(default_factory=list)

    @classmethod
    def of_site_row(cls, matched: int, local: float | None, frequency: int, examples) -> Sums:
        return cls(matched * (local or 0.0), matched, frequency, 1, [list(e) for e in examples])

    def add(self, other: Sums, sign: int = 1) -> None:
        self.weighted += sign * other.weighted
        self.matched += sign * other.matched
        self.frequency += sign * other.frequency
        self.sites += sign * other.sites
        if sign > 0:
            self.examples = _top_up(self.examples, other.examples)

    def same_as(self, other: Sums) -> bool:
        return (math.isclose(self.weighted, other.weighted, rel_tol=1e-9, abs_tol=1e-9)
                and (self.matched, self.frequency, self.sites) == (other.matched, other.frequency, other.sites))


def _top_up(examples: list, more: Iterable) -> list:
    out = list(examples)
    for example in more:
        if len(out) >= MAX_EXAMPLES:
            break
        if list(example) not in out:
            out.append(list(example))
    return out


def _lock_crawl(crawl_id: int) -> None:
    """Two workers scoring two sites at once add to the same global rows: one at a time."""
    list(Crawl.objects.select_for_update().filter(pk=crawl_id).values_list("pk", flat=True))


def _stored_rows(crawl_id: int, keys: Iterable[Key] | None) -> dict[Key, UrlPattern]:
    rows = UrlPattern.objects.filter(crawl_id=crawl_id, site__isnull=True)
    if keys is not None:
        keys = set(keys)
        rows = rows.filter(source_unit__in={k[0] for k in keys}, target_unit__in={k[1] for k in keys})
    return {(r.source_unit, r.target_unit): r for r in rows
            if keys is None or (r.source_unit, r.target_unit) in keys}


def _sums_of(row: UrlPattern) -> Sums:
    return Sums(row.global_credibility_unnormalized or 0.0, row.pages_matched, row.frequency, row.sites,
                list(row.examples))


def _write(crawl_id: int, wanted: Mapping[Key, Sums], stored: Mapping[Key, UrlPattern]) -> None:
    """Make the stored global rows of ``wanted``'s keys say what it says: create, delete (no site has
    the pattern any more) or update the columns that changed; rows already right are not written."""
    gone = [stored[k].pk for k, sums in wanted.items() if sums.sites <= 0 and k in stored]
    if gone:
        UrlPattern.objects.filter(pk__in=gone).delete()
    UrlPattern.objects.bulk_create(
        [UrlPattern(crawl_id=crawl_id, site=None, source_unit=k[0], target_unit=k[1], frequency=s.frequency,
                    pages_matched=s.matched, site_pages=0, sites=s.sites, global_credibility_unnormalized=s.weighted,
                    examples=s.examples)
         for k, s in wanted.items() if s.sites > 0 and k not in stored], batch_size=500)
    columns: dict[str, dict[int, object]] = {}
    for key, sums in wanted.items():
        row = stored.get(key)
        if row is None or sums.sites <= 0:
            continue
        values = {"global_credibility_unnormalized": sums.weighted, "pages_matched": sums.matched,
                  "frequency": sums.frequency, "sites": sums.sites, "examples": sums.examples}
        old = _sums_of(row)
        for name, value in values.items():
            unchanged = (sums.same_as(old) if name in SUM_FIELDS else value == list(row.examples))
            if not unchanged:
                columns.setdefault(name, {})[row.pk] = value
    if columns:
        update_columns(UrlPattern, columns)


def apply_site_change(crawl_id: int, before: Mapping[Key, Sums], after: Mapping[Key, Sums]) -> None:
    """One site's rows went from ``before`` to ``after``: move the global sums by the difference."""
    changed = {k for k in set(before) | set(after)
               if k not in before or k not in after or not before[k].same_as(after[k])
               or before[k].examples != after[k].examples}
    if not changed:
        return
    with transaction.atomic():
        _lock_crawl(crawl_id)
        stored = _stored_rows(crawl_id, changed)
        wanted = {}
        for key in changed:
            sums = _sums_of(stored[key]) if key in stored else Sums()
            if key in before:
                sums.add(before[key], -1)
            if key in after:
                sums.add(after[key])
            wanted[key] = sums
        _write(crawl_id, wanted, stored)


def forget_site_rows(crawl_id: int, site_ids) -> None:
    """The site rows of ``site_ids`` are about to be deleted: take their share out of the global rows."""
    before = {}
    rows = UrlPattern.objects.filter(crawl_id=crawl_id, site_id__in=site_ids).values_list(
        "source_unit", "target_unit", "pages_matched", "local_credibility", "frequency", "examples")
    for t, t2, matched, local, frequency, examples in rows:
        before.setdefault((t, t2), Sums()).add(Sums.of_site_row(matched, local, frequency, examples))
    apply_site_change(crawl_id, before, {})


def rebuild(crawl_id: int) -> None:
    """Every global row from the site rows (Def. 4's sums), writing only the rows that differ."""
    with transaction.atomic():
        _lock_crawl(crawl_id)
        wanted: dict[Key, Sums] = {}
        rows = UrlPattern.objects.filter(crawl_id=crawl_id, site__isnull=False).order_by("id").values_list(
            "source_unit", "target_unit", "pages_matched", "local_credibility", "frequency", "examples")
        for t, t2, matched, local, frequency, examples in rows.iterator(chunk_size=2000):
            wanted.setdefault((t, t2), Sums()).add(Sums.of_site_row(matched, local, frequency, examples))
        stored = _stored_rows(crawl_id, None)
        for key in set(stored) - set(wanted):
            wanted[key] = Sums()  # no site has it any more
        _write(crawl_id, wanted, stored)


class GlobalPatternView(Mapping):
    """The global rows one scoring job reads, as a mapping: the ``top`` rows by credibility (with every
    row tied with the last of them), which is all that ranking them reads (``top_global_patterns``, the
    filter's top 30, the deep guesses' top 10), and the rows of the patterns asked for with ``want``
    (a job's sites' own patterns, the crawl's conventions), each read once. Reading every global row
    for each job cost most of a COBFC crawl's scoring (17,000 rows, 40 % of ``score_sites`` at 50,000
    pages): it grew with the crawl, not with the job."""

    def __init__(self, crawl_id: int, top: int):
        self.crawl_id = crawl_id
        self.pages = total_scored_pages(crawl_id)
        self.rows: dict[Key, GlobalPattern] = {}
        self.asked: set[Key] = set()
        rows = UrlPattern.objects.filter(crawl_id=crawl_id, site__isnull=True)
        ranked = rows.order_by(F("global_credibility_unnormalized").desc(nulls_last=True))
        last = list(ranked.values_list("global_credibility_unnormalized", flat=True)[top - 1:top]) if top > 0 else []
        if last and last[0]:  # the top rows and those tied with the last of them
            self._read(rows.filter(global_credibility_unnormalized__gte=last[0]))
        elif top > 0:  # no more rows than ``top`` that have a credibility: all of them
            self._read(rows)

    def want(self, keys: Iterable[Key]) -> None:
        """Read the rows of these patterns (those not read yet; a pattern no site has stays absent)."""
        missing = set(keys) - self.asked
        if not missing:
            return
        self.asked |= missing
        for chunk in _chunked(sorted(missing), 500):
            wanted = set(chunk)
            self._read(UrlPattern.objects.filter(crawl_id=self.crawl_id, site__isnull=True,
                                                 source_unit__in={k[0] for k in chunk},
                                                 target_unit__in={k[1] for k in chunk}), wanted)

    def _read(self, rows, keys: set[Key] | None = None) -> None:
        pages = self.pages
        for r in rows:
            key = (r.source_unit, r.target_unit)
            if keys is None or key in keys:
                self.rows[key] = _as_global(r, pages)
                self.asked.add(key)

    def __getitem__(self, key: Key) -> GlobalPattern:
        return self.rows[key]

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)


def _chunked(items: list, size: int) -> Iterable[list]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def _as_global(r: UrlPattern, pages: int) -> GlobalPattern:
    """A stored global row as the pairing library reads it (C(k) normalized by N as read)."""
    return GlobalPattern((r.source_unit, r.target_unit),
                         (r.global_credibility_unnormalized or 0.0) / pages if pages else 0.0,
                         r.global_credibility_unnormalized or 0.0, r.sites, r.frequency, [tuple(e) for e in r.examples])


def global_patterns(crawl_id: int) -> dict[Key, GlobalPattern]:
    """The stored global rows as the pairing library reads them (C(k) normalized by N as read)."""
    pages = total_scored_pages(crawl_id)
    return {(r.source_unit, r.target_unit): _as_global(r, pages)
            for r in UrlPattern.objects.filter(crawl_id=crawl_id, site__isnull=True)}
