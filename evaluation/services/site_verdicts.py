"""Which sites of a crawl are bilingual in its language pair: one stored verdict per site, for every
crawl (breadth-first included), combining three kinds of evidence.

- detector: the BS Detector's verdict (frontier.detector_job), when the strategy ran it: both
  languages seen on the pages its switch links lead to;
- pages: the languages of the site's own pages the crawl stored (what a breadth-first crawl has
  instead of the detector's reads): each language of the pair on at least MIN_PAGES_PER_LANGUAGE
  pages (one page each on a site of fewer than SMALL_SITE_PAGES pages), so one misidentified page
  of a Croatian-English site does not make it Serbian-English;
- pairs: kept candidate pairs of the crawl (evaluation.models.CandidatePair, kept by the filter)
  with a side on the site.

A site is bilingual when any of the three says so. The verdict's evidence keeps all three
(``combined``: detector verdict, page counts per language, kept pairs and up to five of them,
and which of them decided), so a reader can trace the answer to the rows behind it. The detector's
own answer stays in ``detector_bilingual``. Combining runs when the crawl finishes (after the
pairs' last pass) and is safe to run again. In a crawl that runs no detector (breadth-first) it
also runs for a site each time the site is scored, so verdicts arrive while the crawl runs, late by
one scoring (evaluation.jobs.score_site); a crawl that runs the detector keeps the detector's
verdict alone until its end, as the back/forward crawl steers by it. A verdict is written only when
its answer or evidence changed; when it becomes bilingual, the page count and time of the decision
are those of that moment, so the harvest curve shows when the site was found, not first seen. Each site's page languages are settled first
(crawlweb.services.site_language): the page counts read the labels the site's variety decided, as
pairing and the detector do, so a Croatian site's page that looked Serbian counts as Croatian.
"""
from __future__ import annotations

from collections import Counter, defaultdict

from django.utils import timezone

from crawlweb.models import Crawl, Page
from crawlweb.services.bulk_rows import update_columns
from crawlweb.services.site_language import settle_sites_languages
from evaluation.models import CandidatePair
from evaluation.pairing.records import base_language
from evaluation.services.inputs import crawl_sites
from frontier.models import SiteVerdict
from frontier.strategies import strategy_for

MIN_PAGES_PER_LANGUAGE = 2
SMALL_SITE_PAGES = 4
PAIR_EXAMPLES = 5
SETTLE_CHUNK = 500


def _only(rows, site_ids, field: str = "site_id"):
    return rows if site_ids is None else rows.filter(**{f"{field}__in": site_ids})


def first_pages_and_languages(crawl: Crawl, site_ids=None) -> tuple[dict[int, int], dict[int, Counter]]:
    """({site id: its first stored page's id}, {site id: pages per base language of its stored HTML
    pages}) of the crawl's sites (of ``site_ids`` only, if given), in one read of their pages."""
    first: dict[int, int] = {}
    counts: dict[int, Counter] = defaultdict(Counter)
    for site_id, page_id, status, language in (_only(Page.objects.filter(crawl=crawl), site_ids).order_by()
                                               .values_list("site_id", "id", "status_code", "language")):
        first[site_id] = min(first.get(site_id, page_id), page_id)
        if language and status is not None and 200 <= status < 300:
            counts[site_id][base_language(language)] += 1
    return first, counts


def kept_pairs(crawl: Crawl, site_ids=None) -> dict[int, list[tuple[str, str]]]:
    """Site id -> kept candidate pairs of the crawl's language pair with a side on that site (pairs
    are stored under their group's canonical Site: ``site_ids`` names the groups' Sites)."""
    out: dict[int, list[tuple[str, str]]] = defaultdict(list)
    rows = (_only(CandidatePair.objects.filter(crawl=crawl, kept=True), site_ids)  # the crawl's pair only
            .values_list("source_url", "target_url", "source_page__site_id", "target_page__site_id", "site_id"))
    for source, target, source_site, target_site, site in rows:
        for site_id in {source_site or site, target_site or site}:
            out[site_id].append((source, target))
    return out


def pages_say_bilingual(languages: Counter, pair: tuple[str, str]) -> bool:
    total = sum(languages.values())
    needed = 1 if total < SMALL_SITE_PAGES else MIN_PAGES_PER_LANGUAGE
    return all(languages.get(language, 0) >= needed for language in pair)


def combine(detector: bool | None, languages: Counter, pairs: list[tuple[str, str]],
            pair: tuple[str, str]) -> tuple[bool, dict]:
    """(bilingual, evidence) of one site; pure."""
    by_pages = pages_say_bilingual(languages, pair)
    decided_by = [name for name, said in (("detector", bool(detector)), ("pages", by_pages), ("pairs", bool(pairs)))
                  if said]
    evidence = {"detector": detector, "page_languages": dict(sorted(languages.items())),
                "pages_bilingual": by_pages, "kept_pairs": len(pairs),
                "pair_examples": [list(p) for p in sorted(set(pairs))[:PAIR_EXAMPLES]], "decided_by": decided_by}
    return bool(decided_by), evidence


def runs_during_crawl(crawl: Crawl) -> bool:
    """Whether a site's verdict is combined each time it is scored (no detector decides during the crawl)."""
    return not (strategy_for(crawl).detects or "detector" in (crawl.config or {}))


def combine_site_verdicts(crawl_id: int, site_ids=None) -> int:
    """Store (or update) the combined verdict of every site with pages in the crawl, or of ``site_ids``
    only (one pairing group, just scored: its page languages were settled by that scoring); returns
    how many of them are bilingual. Idempotent: a second run writes nothing."""
    crawl = Crawl.objects.filter(pk=crawl_id).first()
    if crawl is None:
        return 0
    pair = (base_language(crawl.source_language), base_language(crawl.target_language))
    if site_ids is None:
        ordered = sorted(crawl_sites(crawl_id))
        for start in range(0, len(ordered), SETTLE_CHUNK):  # many sites a statement: most are tiny
            settle_sites_languages(crawl_id, ordered[start:start + SETTLE_CHUNK])
    first_page, languages = first_pages_and_languages(crawl, site_ids)  # as settled
    pairs = kept_pairs(crawl, site_ids)
    existing = {v.site_id: v for v in _only(SiteVerdict.objects.filter(crawl=crawl), site_ids)}
    pages_now = _pages_now(crawl)
    fresh: list[SiteVerdict] = []
    columns: dict[str, dict[int, object]] = defaultdict(dict)
    bilingual_sites = 0
    for site_id in sorted(set(first_page) | set(existing)):
        verdict = existing.get(site_id)
        bilingual, combined = combine(_detector_answer(verdict), languages.get(site_id, Counter()),
                                      pairs.get(site_id, []), pair)
        bilingual_sites += bilingual
        if verdict is None:
            fresh.append(SiteVerdict(crawl=crawl, site_id=site_id, page_id=first_page.get(site_id),
                                     bilingual=bilingual, evidence={"combined": combined, "detector_bilingual": None},
                                     pages_fetched_at_decision=pages_now))
        else:
            for name, value in _changes(verdict, bilingual, combined, pages_now).items():
                columns[name][verdict.pk] = value
    # In bulk: a job scores a dozen sites at a time and the crawl's end all of them; one statement each
    # (in a savepoint) cost a quarter of a scoring job. A conflict is a verdict the detector stored
    # meanwhile: the next run combines it.
    SiteVerdict.objects.bulk_create(fresh, ignore_conflicts=True, batch_size=500)
    if columns:
        update_columns(SiteVerdict, columns)
    return bilingual_sites


def _detector_answer(verdict: SiteVerdict | None) -> bool | None:
    """The detector's own answer: kept aside the first time a verdict is combined, read back on later runs."""
    return verdict.evidence.get("detector_bilingual", verdict.bilingual) if verdict is not None else None


def _changes(verdict: SiteVerdict, bilingual: bool, combined: dict, pages_now: int) -> dict[str, object]:
    """The columns of a stored verdict that its new combination changes (none: nothing is written)."""
    evidence = {**verdict.evidence, "combined": combined, "detector_bilingual": _detector_answer(verdict)}
    if (evidence, bilingual) == (verdict.evidence, verdict.bilingual):
        return {}
    changed: dict[str, object] = {"evidence": evidence, "bilingual": bilingual}
    if bilingual and not verdict.bilingual:  # found now: the harvest curve counts it from here
        changed.update(pages_fetched_at_decision=pages_now, decided_at=timezone.now())
    return changed


def _pages_now(crawl: Crawl) -> int:
    return Crawl.objects.filter(pk=crawl.pk).values_list("pages_fetched", flat=True).first() or 0
