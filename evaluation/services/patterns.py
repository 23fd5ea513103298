"""Stored patterns: one site's rows (Def. 1–3, Def. 5) and the crawl's global rows (Def. 4).

Incremental by construction: scoring a site rewrites only that site's rows; the global rows are
then re-aggregated from the stored site rows (Σ over sites of N(k, wᵢ)·C(k, wᵢ)), which reads
stored numbers and mines nothing.  The global rewrite holds a lock on the Crawl row, so two
workers scoring two sites at once do not interleave their rewrites.
"""
from __future__ import annotations

from collections import Counter

from django.db import transaction
from django.db.models import Sum

from crawlweb.models import Crawl
from evaluation.models import ScoreClaim, SiteCredibility, UrlPattern
from evaluation.pairing.patterns import MAX_EXAMPLES, GlobalPattern, SitePatterns
from evaluation.pairing.records import base_language

UNIT_MAX = 200


def _unit(text: str) -> str:
    return text[:UNIT_MAX]


def lock_site(crawl_id: int, site) -> None:
    """Serialize the writes of two score_site jobs of one site running at once on two workers
    (PostgreSQL row lock on the site's claim row; SQLite serializes writers anyway)."""
    list(ScoreClaim.objects.select_for_update().filter(crawl_id=crawl_id, site=site).values_list("pk", flat=True))


ROW_FIELDS = ("source_unit", "target_unit", "scope", "frequency", "pages_matched", "site_pages", "local_credibility",
              "examples")


@transaction.atomic
def store_site_patterns(crawl_id: int, loaded, mined: SitePatterns, languages: tuple[str, str]) -> SiteCredibility:
    """Replace the site's pattern rows (left as they are when nothing changed: a crawl-wide pass
    re-mines sites that got no new page) and its C(w) row."""
    site = loaded.site
    lock_site(crawl_id, site)
    rows = {}
    for entry in mined.patterns.values():
        key = (_unit(entry.pattern[0]), _unit(entry.pattern[1]))
        scope = entry.scopes.most_common(1)[0][0] if entry.scopes else ""
        rows[key] = UrlPattern(crawl_id=crawl_id, site=site, source_unit=key[0], target_unit=key[1], scope=scope,
                               frequency=entry.frequency, pages_matched=entry.pages_matched, site_pages=mined.n_pages,
                               sites=1, local_credibility=entry.local_credibility,
                               examples=[list(pair) for pair in entry.examples()])
    stored = {values[:2]: values for values in UrlPattern.objects.filter(crawl_id=crawl_id, site=site)
              .values_list(*ROW_FIELDS)}
    if stored != {key: tuple(getattr(row, name) for name in ROW_FIELDS) for key, row in rows.items()}:
        UrlPattern.objects.filter(crawl_id=crawl_id, site=site).delete()
        UrlPattern.objects.bulk_create(rows.values(), batch_size=500)
    best = mined.ranked()[0] if mined.patterns else None
    counts = Counter(base_language(lang) for lang in loaded.languages_of.values())
    credibility, _ = SiteCredibility.objects.update_or_create(
        crawl_id=crawl_id, site=site,
        defaults=dict(pages=mined.n_pages, source_pages=counts[languages[0]], target_pages=counts[languages[1]],
                      credibility=mined.credibility, domain=loaded.domain, has_best_pattern=best is not None,
                      best_source_unit=_unit(best.pattern[0]) if best else "",
                      best_target_unit=_unit(best.pattern[1]) if best else ""))
    return credibility


def refresh_global_patterns(crawl_id: int) -> dict[tuple[str, str], GlobalPattern]:
    """Def. 4 over the candidate sites (every site scored in the crawl): rewrite the global rows."""
    with transaction.atomic():
        list(Crawl.objects.select_for_update().filter(pk=crawl_id).values_list("pk", flat=True))
        total_pages = SiteCredibility.objects.filter(crawl_id=crawl_id).aggregate(n=Sum("pages"))["n"] or 0
        result: dict[tuple[str, str], GlobalPattern] = {}
        matched_total: Counter = Counter()  # Σ N(k, wᵢ), shown on the global row
        rows = UrlPattern.objects.filter(crawl_id=crawl_id, site__isnull=False).values_list(
            "source_unit", "target_unit", "pages_matched", "local_credibility", "frequency", "examples")
        for t, t2, matched, local, frequency, examples in rows.iterator(chunk_size=2000):
            g = result.get((t, t2))
            if g is None:
                g = result[(t, t2)] = GlobalPattern((t, t2), 0.0, 0.0, 0, 0)
            weighted = matched * (local or 0.0)
            matched_total[(t, t2)] += matched
            g.credibility_unnormalized += weighted
            g.credibility += weighted / total_pages if total_pages else 0.0
            g.sites += 1
            g.frequency += frequency
            if len(g.examples) < MAX_EXAMPLES:
                g.examples += [tuple(e) for e in examples[:MAX_EXAMPLES - len(g.examples)]]
        UrlPattern.objects.filter(crawl_id=crawl_id, site__isnull=True).delete()
        UrlPattern.objects.bulk_create(
            [UrlPattern(crawl_id=crawl_id, site=None, source_unit=t, target_unit=t2, frequency=g.frequency,
                        pages_matched=matched_total[(t, t2)], site_pages=total_pages, sites=g.sites,
                        global_credibility=g.credibility, global_credibility_unnormalized=g.credibility_unnormalized,
                        examples=[list(e) for e in g.examples])
             for (t, t2), g in result.items()], batch_size=500)
    return result


def stored_global_patterns(crawl_id: int) -> dict[tuple[str, str], GlobalPattern]:
    return {(r.source_unit, r.target_unit): GlobalPattern((r.source_unit, r.target_unit), r.global_credibility or 0.0,
                                                          r.global_credibility_unnormalized or 0.0, r.sites,
                                                          r.frequency, [tuple(e) for e in r.examples])
            for r in UrlPattern.objects.filter(crawl_id=crawl_id, site__isnull=True)}


def stored_domain_credibility(crawl_id: int) -> dict[str, float]:
    """Mean site credibility C(w) per domain (public suffix), as methods.domain_credibility computes it."""
    totals: dict[str, list[float]] = {}
    for domain, credibility in SiteCredibility.objects.filter(crawl_id=crawl_id).values_list("domain", "credibility"):
        if domain:
            totals.setdefault(domain, []).append(credibility)
    return {d: sum(v) / len(v) for d, v in totals.items()}


def stored_conventions(crawl_id: int, min_frequency: int) -> set[tuple[str, str]]:
    """Patterns that pair at least ``min_frequency`` pages within some one site, p(k, w) ≥ min_frequency."""
    return set(UrlPattern.objects.filter(crawl_id=crawl_id, site__isnull=False, frequency__gte=min_frequency)
               .values_list("source_unit", "target_unit").distinct())
