"""What a crawl found: the live panel of its dashboard page and the same figures as JSON."""
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, render

from crawlweb.console_access import staff_console
from console.dashboard import discovery
from console.dashboard.figure_cache import crawl_figures
from crawlweb.models import Crawl
from evaluation.services.pairing_state import pairing_state


def discovery_context(crawl: Crawl) -> dict:
    evaluations, pairing = discovery.evaluations(crawl), pairing_state(crawl)  # read once: the summary has them too
    return {"crawl": crawl, "summary": discovery.crawl_summary(crawl, evaluations, pairing),
            "bilingual_sites": discovery.bilingual_sites(crawl), "removed_pairs": discovery.removed_pairs(crawl),
            "evaluations": evaluations, "pairing": pairing}


@staff_console
def discovery_panel(request, pk):
    crawl = get_object_or_404(Crawl, pk=pk)  # read fresh: its state and pages fetched are not cached
    figures = crawl_figures("discovery", crawl, lambda: discovery_context(crawl))
    return render(request, "dashboard/_discovery.html", {**figures, "crawl": crawl})


@staff_console
def harvest_panel(request, pk):
    """The harvest curve, polled like the panels above it, so it grows while the crawl runs."""
    crawl = get_object_or_404(Crawl, pk=pk)
    return render(request, "frontier/_harvest.html", {"crawl": crawl})


@staff_console
def summary_json(request, pk):
    crawl = get_object_or_404(Crawl, pk=pk)
    return JsonResponse(discovery.crawl_summary(crawl))
