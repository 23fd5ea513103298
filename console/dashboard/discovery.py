"""What a crawl has found so far, for its dashboard page and its JSON summary: the sites judged
bilingual with their evidence, and the candidate pairs kept and removed with the filter's reasons.
Each figure is one query over the rows behind it (SiteVerdict, CandidatePair)."""
from __future__ import annotations

from django.db.models import Count

from console.dashboard.evidence import verdict_summary
from crawlweb.models import Crawl
from evaluation.models import CandidatePair
from evaluation.services.pairing_state import PairingState, pairing_state
from frontier.models import SiteVerdict
from labeling.models import Evaluation

LISTED = 50  # rows of each list on the page; the pairs pages have them all


def bilingual_sites(crawl: Crawl, limit: int = LISTED) -> list[dict]:
    verdicts = (SiteVerdict.objects.filter(crawl=crawl, bilingual=True).select_related("site")
                .order_by("pages_fetched_at_decision", "id")[:limit])
    return [{"site": verdict.site.name, "site_id": verdict.site_id, "pages_fetched_at_decision": verdict.pages_fetched_at_decision,
             "pages_downloaded": verdict.pages_downloaded, "evidence": verdict_summary(verdict.evidence),
             "verdict_id": verdict.pk} for verdict in verdicts]


def pair_counts(crawl: Crawl) -> dict:
    rows = CandidatePair.objects.filter(crawl=crawl).values("method", "kept").annotate(n=Count("id"))
    by_method: dict[str, dict[str, int]] = {}
    for row in rows:
        by_method.setdefault(row["method"], {"kept": 0, "removed": 0})["kept" if row["kept"] else "removed"] += row["n"]
    return {"kept": sum(m["kept"] for m in by_method.values()),
            "removed": sum(m["removed"] for m in by_method.values()),
            "by_method": dict(sorted(by_method.items()))}


def removed_pairs(crawl: Crawl, limit: int = LISTED) -> list[CandidatePair]:
    return list(CandidatePair.objects.filter(crawl=crawl, kept=False).order_by("site_id", "id")[:limit])


def crawl_summary(crawl: Crawl, listed: list[Evaluation] | None = None, pairing: PairingState | None = None) -> dict:
    """The machine-readable answer to "what has this crawl found?" (also what CI checks in the demo);
    ``listed`` and ``pairing``: the crawl's evaluations and pairing state when the caller has read them."""
    verdicts = SiteVerdict.objects.filter(crawl=crawl).values("bilingual").annotate(n=Count("id"))
    judged = {row["bilingual"]: row["n"] for row in verdicts}
    pairs = pair_counts(crawl)
    return {"crawl": crawl.pk, "name": crawl.name, "state": crawl.state, "strategy": crawl.strategy,
            "pages_fetched": crawl.pages_fetched, "page_budget": crawl.page_budget,
            "sites_judged": sum(judged.values()), "bilingual_sites": judged.get(True, 0),
            "pairs_kept": pairs["kept"], "pairs_removed": pairs["removed"], "pairs_by_method": pairs["by_method"],
            "pairs_final": (pairing or pairing_state(crawl)).final,
            "evaluations": [{"id": e.pk, "name": e.name, "state": e.state, "items": e.n_items}
                            for e in (evaluations(crawl) if listed is None else listed)]}


def evaluations(crawl: Crawl) -> list[Evaluation]:
    return list(Evaluation.objects.filter(crawls=crawl).annotate(n_items=Count("items")).order_by("-id")[:10])
