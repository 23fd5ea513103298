"""Rows of the bilingual-sites export: every site of a crawl with its verdict, the evidence behind
it, its credibility and its pages per language.

Sites are read with ``.iterator()`` in batches of BATCH; each batch fetches the verdicts
(frontier.models.SiteVerdict, evidence as evaluation.services.site_verdicts.combine stores it), credibilities
(evaluation.models.SiteCredibility, Def. 5 C(w)) and page counts of its sites in three queries, so
memory stays bounded by the batch, whatever the crawl's size."""
from __future__ import annotations

from collections import Counter, defaultdict
from itertools import islice
from typing import Iterator

from django.db.models import Count, Exists, OuterRef, Q

from console.exports.text import format_score, language_tag
from crawlweb.models import Page, Site
from evaluation.models import SiteCredibility
from frontier.models import SiteVerdict

BATCH = 500
SITE_COLUMNS = ("site", "verdict", "decided_by", "detector", "kept_pairs", "credibility", "best_pattern",
                "pages", "pages_by_language", "evidence")


def site_rows(crawl_id: int) -> Iterator[dict]:
    """One dict a site; ``pages_by_language`` is a {tag: pages} dict, ``evidence_detail`` the stored
    evidence (JSON only)."""
    has_pages = Exists(Page.objects.filter(crawl_id=crawl_id, site_id=OuterRef("pk")))
    has_verdict = Exists(SiteVerdict.objects.filter(crawl_id=crawl_id, site_id=OuterRef("pk")))
    sites = (Site.objects.filter(Q(has_pages) | Q(has_verdict)).order_by("id")
             .values_list("id", "name").iterator(chunk_size=BATCH))
    while batch := list(islice(sites, BATCH)):
        yield from _batch_rows(crawl_id, batch)


def _batch_rows(crawl_id: int, batch: list[tuple[int, str]]) -> Iterator[dict]:
    ids = [site_id for site_id, _ in batch]
    verdicts = {site_id: (bilingual, evidence) for site_id, bilingual, evidence in
                SiteVerdict.objects.filter(crawl_id=crawl_id, site_id__in=ids)
                .values_list("site_id", "bilingual", "evidence")}
    credibilities = {c.site_id: c for c in SiteCredibility.objects.filter(crawl_id=crawl_id, site_id__in=ids)}
    languages: dict[int, Counter] = defaultdict(Counter)
    counts = (Page.objects.filter(crawl_id=crawl_id, site_id__in=ids, status_code__gte=200, status_code__lt=300)
              .values_list("site_id", "language", "script").annotate(n=Count("id")).order_by())
    for site_id, language, script, n in counts:
        languages[site_id][language_tag(language, script)] += n
    for site_id, name in batch:
        bilingual, evidence = verdicts.get(site_id, (None, {}))
        credibility = credibilities.get(site_id)
        yield site_row(name, bilingual, evidence or {}, credibility, languages[site_id])


def site_row(name: str, bilingual: bool | None, evidence: dict, credibility: SiteCredibility | None,
             languages: Counter) -> dict:
    combined = evidence.get("combined") or {}
    # a verdict not combined yet is the detector's own (frontier.detector_job)
    detector = combined.get("detector") if combined else bilingual
    return {
        "site": name,
        "verdict": "undecided" if bilingual is None else ("bilingual" if bilingual else "not bilingual"),
        "decided_by": " ".join(combined.get("decided_by", ["detector"] if detector else [])),
        "detector": "" if detector is None else ("bilingual" if detector else "not bilingual"),
        "kept_pairs": combined.get("kept_pairs", 0),
        "credibility": credibility.credibility if credibility else None,
        "best_pattern": credibility.best_pattern if credibility else "",
        "pages": sum(languages.values()),
        "pages_by_language": dict(sorted(languages.items())),
        "evidence": evidence_summary(bilingual, evidence),
        "evidence_detail": evidence,
    }


def evidence_summary(bilingual: bool | None, evidence: dict) -> str:
    """One line a reader can check against the rows: who decided, what the detector and the pages said,
    how many kept pairs, one example pair."""
    if bilingual is None:
        return "no verdict yet (verdicts are combined when the crawl finishes)"
    combined = evidence.get("combined")
    if not combined:  # the detector's own verdict, not combined yet
        seen = ", ".join(evidence.get("languages") or []) or "none"
        return f"detector: {'bilingual' if bilingual else 'not bilingual'}; languages seen on its pages: {seen}"
    detector = combined.get("detector")
    parts = [f"decided by {', '.join(combined['decided_by'])}" if combined.get("decided_by")
             else "neither the detector, the pages nor kept pairs show both languages",
             "detector: " + ("did not run" if detector is None else "bilingual" if detector else "not bilingual"),
             "pages: " + (" ".join(f"{k}={v}" for k, v in combined.get("page_languages", {}).items()) or "none"),
             f"kept pairs: {combined.get('kept_pairs', 0)}"]
    examples = combined.get("pair_examples") or []
    if examples:
        parts.append(f"e.g. {examples[0][0]} ↔ {examples[0][1]}")
    return "; ".join(parts)


def flat_site_row(row: dict) -> dict:
    """The CSV form: pages per language as 'en=5 sr-Latn=3', numbers plain."""
    return {**row, "pages_by_language": " ".join(f"{k}={v}" for k, v in row["pages_by_language"].items()),
            "credibility": format_score(row["credibility"])}
