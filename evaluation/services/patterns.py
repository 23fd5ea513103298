"""Stored patterns: one site's rows (Def. 1–3, Def. 5) and the crawl's global rows (Def. 4).

Incremental by construction: scoring a site writes only that site's rows that changed, and moves
the global rows of its patterns by the site's difference (global_patterns.py); the crawl-wide pass
recomputes the global sums from the stored site rows, which reads stored numbers and mines nothing.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from typing import Iterable

from django.db import transaction
from django.db.models import Avg

from crawlweb.services.bulk_rows import update_columns, write_site_rows
from evaluation.models import ScoreClaim, SiteCredibility, UrlPattern
from evaluation.pairing.patterns import GlobalPattern, SitePatterns
from evaluation.pairing.records import base_language
from evaluation.services.global_patterns import Sums, apply_site_change, global_patterns, rebuild

UNIT_MAX = 200


def _unit(text: str) -> str:
    return text[:UNIT_MAX]


def lock_sites(crawl_id: int, site_ids: Iterable[int]) -> None:
    """Serialize the writes of two scoring jobs of one site running at once on two workers (PostgreSQL
    row locks on the sites' claim rows, taken in one order; SQLite serializes writers anyway)."""
    list(ScoreClaim.objects.select_for_update().filter(crawl_id=crawl_id, site_id__in=list(site_ids))
         .order_by("pk").values_list("pk", flat=True))


ROW_FIELDS = ("scope", "frequency", "pages_matched", "site_pages", "local_credibility", "examples")


def _site_rows(crawl_id: int, site, mined: SitePatterns) -> dict[tuple[str, str], dict]:
    rows = {}
    for entry in mined.patterns.values():
        key = (_unit(entry.pattern[0]), _unit(entry.pattern[1]))
        rows[key] = dict(scope=entry.scopes.most_common(1)[0][0] if entry.scopes else "", frequency=entry.frequency,
                         pages_matched=entry.pages_matched, site_pages=mined.n_pages,
                         local_credibility=entry.local_credibility,
                         examples=[list(pair) for pair in entry.examples()])
    return rows


def _contributions(rows: dict[tuple[str, str], dict]) -> dict[tuple[str, str], Sums]:
    return {key: Sums.of_site_row(r["pages_matched"], r["local_credibility"], r["frequency"], r["examples"])
            for key, r in rows.items()}


@transaction.atomic
def store_sites_patterns(crawl_id: int, mined_sites: list, languages: tuple[str, str]) -> None:
    """Bring each site's pattern rows and its C(w) row to what was mined, writing only rows that
    changed (a crawl-wide pass re-mines sites that got no new page), and move the global rows by the
    sites' difference (global_patterns.apply_site_change). ``mined_sites``: (loaded, mined) of each
    site; all of them in a handful of statements, under their claim locks."""
    ids = [loaded.site.pk for loaded, _ in mined_sites]
    lock_sites(crawl_id, ids)
    stored_of: dict[int, dict] = defaultdict(dict)
    for row in UrlPattern.objects.filter(crawl_id=crawl_id, site_id__in=ids).values(
            "id", "site_id", "source_unit", "target_unit", *ROW_FIELDS):
        stored_of[row["site_id"]][(row["source_unit"], row["target_unit"])] = row
    gone, new, columns = [], [], {}
    before: dict[tuple[str, str], Sums] = {}
    after: dict[tuple[str, str], Sums] = {}
    for loaded, mined in mined_sites:
        site = loaded.site
        wanted, stored = _site_rows(crawl_id, site, mined), stored_of[site.pk]
        gone += [stored[key]["id"] for key in set(stored) - set(wanted)]
        new += [UrlPattern(crawl_id=crawl_id, site=site, source_unit=key[0], target_unit=key[1], sites=1, **values)
                for key, values in wanted.items() if key not in stored]
        for key, values in wanted.items():
            row = stored.get(key)
            for name, value in (values.items() if row else ()):
                if row[name] != value:
                    columns.setdefault(name, {})[row["id"]] = value
        _add_up(before, _contributions(stored))
        _add_up(after, _contributions(wanted))
    if gone:
        UrlPattern.objects.filter(pk__in=gone).delete()
    UrlPattern.objects.bulk_create(new, batch_size=500)
    if columns:
        update_columns(UrlPattern, columns)
    apply_site_change(crawl_id, before, after)
    store_credibilities(crawl_id, {loaded.site.pk: credibility_values(loaded, mined, languages)
                                   for loaded, mined in mined_sites})


def _add_up(total: dict[tuple[str, str], Sums], contributions: dict[tuple[str, str], Sums]) -> None:
    """Several sites' contributions to the global rows, summed per pattern."""
    for key, sums in contributions.items():
        total.setdefault(key, Sums()).add(sums)


def credibility_values(loaded, mined: SitePatterns, languages) -> dict:
    """The values of the site's C(w) row (Def. 5) and its page counts per language of the pair."""
    best = mined.ranked()[0] if mined.patterns else None
    counts = Counter(base_language(lang) for lang in loaded.languages_of.values())
    return dict(pages=mined.n_pages, source_pages=counts[languages[0]], target_pages=counts[languages[1]],
                credibility=mined.credibility, domain=loaded.domain, has_best_pattern=best is not None,
                best_source_unit=_unit(best.pattern[0]) if best else "",
                best_target_unit=_unit(best.pattern[1]) if best else "")


def store_credibilities(crawl_id: int, wanted: dict[int, dict]) -> None:
    """Each site's C(w) row ({site id: credibility_values}), writing only values that changed (scored_at
    moves with them, as save() would move it); the caller holds the sites' claim locks (lock_sites)."""
    write_site_rows(SiteCredibility, crawl_id, wanted, "scored_at")


def refresh_global_patterns(crawl_id: int) -> dict[tuple[str, str], GlobalPattern]:
    """Def. 4 over the candidate sites (every site scored in the crawl), recomputed from the site rows."""
    rebuild(crawl_id)
    return global_patterns(crawl_id)


def stored_domain_credibility(crawl_id: int, domains: Iterable[str] | None = None) -> dict[str, float]:
    """Mean site credibility C(w) per domain (public suffix), as methods.domain_credibility computes it,
    averaged by the database (of ``domains`` only, if given: a site's scoring needs its own domain's, and
    reading every site's row for it made each scoring cost as much as the crawl's sites)."""
    rows = SiteCredibility.objects.filter(crawl_id=crawl_id).exclude(domain="")
    if domains is not None:
        rows = rows.filter(domain__in=set(domains))
    return dict(rows.values("domain").annotate(mean=Avg("credibility")).values_list("domain", "mean"))


def stored_conventions(crawl_id: int, min_frequency: int) -> set[tuple[str, str]]:
    """Patterns that pair at least ``min_frequency`` pages within some one site, p(k, w) ≥ min_frequency."""
    return set(UrlPattern.objects.filter(crawl_id=crawl_id, site__isnull=False, frequency__gte=min_frequency)
               .values_list("source_unit", "target_unit").distinct())
