"""Pages of the pairing results of a crawl: patterns, pairs, site credibility, discovered sites."""
from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from crawlweb.console_access import staff_console
from crawlweb.jobs.queueing import enqueue
from crawlweb.models import Crawl
from evaluation import jobs
from evaluation.models import (
    CandidatePair,
    DiscoveredSite,
    DiscoveryRun,
    ScriptVariant,
    SiteCredibility,
    UrlPattern,
    total_scored_pages,
)
from evaluation.services.pairs import METHODS

PAGE_SIZE = 100
PAIRS_PAGE_SIZE = 25  # a pair's row holds two URLs and a reason: 25 fit a screen or two
KEPT_FILTERS = {"kept": True, "removed": False}


def _page(request, queryset, size: int = PAGE_SIZE):
    page = Paginator(queryset, size).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    page.filters = query.urlencode()  # the pager's links keep the list's filters
    return page


@staff_console
def overview(request, crawl_id):
    crawl = get_object_or_404(Crawl, pk=crawl_id)
    pairs = CandidatePair.objects.filter(crawl=crawl)
    by_method = pairs.values("method").annotate(n=Count("id"), kept=Count("id", filter=Q(kept=True))).order_by("method")
    context = {"crawl": crawl, "by_method": by_method, "variants": ScriptVariant.objects.filter(crawl=crawl).count(),
               "patterns": UrlPattern.objects.global_rows(crawl.pk)[:10],
               "sites": SiteCredibility.objects.filter(crawl=crawl).select_related("site")[:10]}
    return render(request, "evaluation/overview.html", context)


@staff_console
def patterns(request, crawl_id):
    crawl = get_object_or_404(Crawl, pk=crawl_id)
    rows = UrlPattern.objects.global_rows(crawl.pk).order_by("-global_credibility_unnormalized", "id")
    return render(request, "evaluation/patterns.html", {"crawl": crawl, "page": _page(request, rows),
                                                        "scored_pages": total_scored_pages(crawl.pk)})


@staff_console
def pairs(request, crawl_id):
    crawl = get_object_or_404(Crawl, pk=crawl_id)
    rows = CandidatePair.objects.filter(crawl=crawl).select_related("site").order_by("site__name", "method", "source_url")
    method, site, kept = request.GET.get("method", ""), request.GET.get("site", ""), request.GET.get("kept", "")
    if method:
        rows = rows.filter(method=method)
    if site:
        rows = rows.filter(site__name=site)
    if kept in KEPT_FILTERS:
        rows = rows.filter(kept=KEPT_FILTERS[kept])
    context = {"crawl": crawl, "page": _page(request, rows, PAIRS_PAGE_SIZE), "methods": METHODS, "method": method,
               "site": site, "kept": kept, "variants": ScriptVariant.objects.filter(crawl=crawl).select_related("site")[:200]}
    return render(request, "evaluation/pairs.html", context)


@staff_console
def sites(request, crawl_id):
    crawl = get_object_or_404(Crawl, pk=crawl_id)
    rows = SiteCredibility.objects.filter(crawl=crawl).select_related("site").order_by("-credibility", "site__name")
    return render(request, "evaluation/sites.html", {"crawl": crawl, "page": _page(request, rows)})


@staff_console
def discovered(request, crawl_id):
    crawl = get_object_or_404(Crawl, pk=crawl_id)
    rows = DiscoveredSite.objects.filter(crawl=crawl).order_by("-iteration", "rank")
    run = DiscoveryRun.objects.filter(crawl=crawl).first()
    return render(request, "evaluation/discovered.html", {"crawl": crawl, "page": _page(request, rows), "run": run})


@staff_console
@require_POST
def run(request, crawl_id, action):
    crawl = get_object_or_404(Crawl, pk=crawl_id)
    job = {"score": jobs.score_crawl, "discover": jobs.discover_sites}.get(action)
    if job is None:
        messages.error(request, f"Unknown action {action!r}.")
    else:
        enqueue(job, crawl.pk, queue_name="score")
        messages.success(request, f"{action.capitalize()} queued for crawl {crawl}.")
    return redirect("evaluation:overview", crawl_id=crawl.pk)
