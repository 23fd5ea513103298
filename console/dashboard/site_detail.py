"""Everything one crawl knows about one site, for its dashboard page: pages by language and script,
the BS Detector's verdict and its evidence, the site's language variety, its pairing patterns
(Pupsniffer Def. 2–3) and credibility (Def. 5), and its candidate pairs with the filter's reasons."""
from __future__ import annotations

from django.db.models import Count

from console.dashboard.evidence import verdict_summary
from console.dashboard.evidence_view import evidence_entries
from crawlweb.models import Crawl, Page, Site, SiteLanguage
from evaluation.models import CandidatePair, SiteCredibility, UrlPattern
from frontier.models import SiteVerdict, Target

LISTED = 200  # pages and pairs listed on the page; the counts link to all of them in the admin


def _pages(crawl: Crawl, site: Site) -> dict:
    pages = Page.objects.filter(crawl=crawl, site=site)
    by_language = pages.order_by().values("language", "script").annotate(n=Count("id")).order_by("-n", "language")
    listed = list(pages.order_by("language", "script", "final_url")
                  .only("id", "final_url", "status_code", "language", "script", "title")[:LISTED])
    # "Why is this Target here?" is answered on the Target page: link each page to the Target that fetched it.
    targets = dict(Target.objects.filter(crawl=crawl, page_id__in=[p.pk for p in listed]).order_by("id")
                   .values_list("page_id", "id"))
    for page in listed:
        page.target_id = targets.get(page.pk)
    return {"total": sum(row["n"] for row in by_language), "by_language": list(by_language), "listed": listed}


def _pairs(crawl: Crawl, site: Site) -> dict:
    pairs = CandidatePair.objects.filter(crawl=crawl, site=site)
    counts = {row["kept"]: row["n"] for row in pairs.order_by().values("kept").annotate(n=Count("id"))}
    listed = list(pairs.order_by("-kept", "method", "source_url")[:LISTED])
    return {"kept": counts.get(True, 0), "removed": counts.get(False, 0), "listed": listed}


def site_report(crawl: Crawl, site: Site) -> dict:
    verdict = SiteVerdict.objects.filter(crawl=crawl, site=site).select_related("page").first()
    return {
        "crawl": crawl, "site": site,
        "hosts": list(site.hosts.order_by("name").values_list("name", flat=True)),
        "pages": _pages(crawl, site),
        "verdict": verdict,
        "verdict_summary": verdict_summary(verdict.evidence) if verdict else "",
        "evidence": evidence_entries(verdict.evidence) if verdict else [],
        "variety": SiteLanguage.objects.filter(crawl=crawl, site=site).first(),
        "credibility": SiteCredibility.objects.filter(crawl=crawl, site=site).first(),
        "patterns": list(UrlPattern.objects.filter(crawl=crawl, site=site)
                         .order_by("-local_credibility", "-frequency", "id")[:LISTED]),
        "pairs": _pairs(crawl, site),
    }
