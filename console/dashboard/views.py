from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from crawlweb.console_access import staff_console
from console.dashboard.discovery_views import discovery_context
from console.dashboard.figure_cache import crawl_figures
from console.dashboard.front_door import front_door
from console.dashboard.live import live_counters
from console.dashboard.new_crawl import filled_form, form_context
from console.dashboard.stats import crawl_list_counters
from crawlweb.jobs.queueing import describe_jobs, pending_crawl_jobs
from crawlweb.models import Crawl, Page
from crawlweb.jobs import chain_runner, crawl_control

RECENT_PAGES = 10  # the newest; the counters link to them all
ACTIONS = {
    "pause": crawl_control.pause_crawl,
    "resume": crawl_control.resume_crawl,
    "stop": crawl_control.stop_crawl,
    "reharvest": crawl_control.reharvest_crawl,
    "start": crawl_control.start_crawl,
}


def _partial(request, template: str, partial: str, context: dict):
    """htmx requests get only the named partial; a plain request gets the whole page."""
    name = partial if request.headers.get("HX-Request") else template
    response = render(request, name, context)
    response["Vary"] = "HX-Request"
    return response


@front_door
def index(request):
    listed = list(Crawl.objects.all()[:50])
    counters = crawl_list_counters([crawl.pk for crawl in listed])
    crawls = [(crawl, counters[crawl.pk]) for crawl in listed]
    context = {"crawls": crawls, **form_context(filled_form(request.GET))}
    return _partial(request, "dashboard/index.html", "dashboard/_crawl_table.html", context)


@staff_console
def crawl_detail(request, pk):
    crawl = get_object_or_404(Crawl, pk=pk)
    context = {"crawl": crawl, "live": crawl_figures("live", crawl, lambda: live_counters(crawl)),
               # what a crawl with an empty frontier still waits for before it finishes (read from the queues)
               "jobs_waiting": describe_jobs(pending_crawl_jobs(crawl.pk)),
               # a running crawl whose process died (embedded mode): its page offers to take it over
               "runner_gone": chain_runner.runner_gone(crawl)}
    if request.headers.get("HX-Request"):  # the polled partial: live counters, and the actions out of band
        context["oob"] = True
    else:
        context.update(discovery_context(crawl), recent_pages=_recent_pages(crawl))
    return _partial(request, "dashboard/crawl.html", "dashboard/_crawl_status.html", context)


def _recent_pages(crawl: Crawl):
    return Page.objects.filter(crawl=crawl).order_by("-id")[:RECENT_PAGES]


@staff_console
def recent_pages(request, pk):
    """The crawl page's Recent pages table, polled while the crawl runs."""
    crawl = get_object_or_404(Crawl, pk=pk)
    return render(request, "dashboard/_recent_pages.html", {"crawl": crawl, "recent_pages": _recent_pages(crawl)})


@staff_console
@require_POST
def crawl_action(request, pk, action):
    crawl = get_object_or_404(Crawl, pk=pk)
    if action not in ACTIONS:
        messages.error(request, f"Unknown action {action!r}.")
        return redirect("dashboard:crawl", pk=pk)
    try:
        ACTIONS[action](crawl)
        messages.success(request, f"{action}: done.")
    except crawl_control.CrawlStateError as error:
        messages.error(request, str(error))
    return redirect("dashboard:crawl", pk=pk)
