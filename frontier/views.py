"""Dashboard pages of the frontier: "why is this Target here?", layer counts per crawl, and the
harvest curves of crawls side by side."""
from django.http import Http404
from django.shortcuts import get_object_or_404, render

from crawlweb.console_access import staff_console
from crawlweb.ids import query_ids
from crawlweb.models import Crawl
from frontier.harvest import chart_for
from frontier.layers.base import LAYER_NAMES
from frontier.models import Target
from frontier.placement_report import explain_target, layer_counts

LIST_LIMIT = 200
HARVEST_CHOICES = 50


@staff_console
def target_detail(request, pk):
    target = get_object_or_404(Target.objects.select_related("crawl", "site", "source_page"), pk=pk)
    return render(request, "frontier/target.html", {"target": target, **explain_target(target)})


@staff_console
def crawl_layers(request, pk):
    crawl = get_object_or_404(Crawl, pk=pk)
    return render(request, "frontier/crawl_layers.html", {"crawl": crawl, "modules": layer_counts(crawl)})


@staff_console
def layer_targets(request, pk, module, layer):
    crawl = get_object_or_404(Crawl, pk=pk)
    if layer not in LAYER_NAMES:
        raise Http404("layer must be 1, 2 or 3")
    targets = (Target.objects.filter(crawl=crawl, placements__module=module, placements__layer=layer)
               .order_by("-priority", "id").only("id", "url", "state", "priority", "depth")[:LIST_LIMIT])
    context = {"crawl": crawl, "module": module, "layer": layer, "layer_name": LAYER_NAMES[layer],
               "targets": targets, "limit": LIST_LIMIT}
    return render(request, "frontier/layer_targets.html", context)


@staff_console
def harvest(request):
    """Bilingual sites found vs pages fetched of the crawls named by ``?crawl=ID`` (repeatable)."""
    chosen = set(query_ids(request.GET, "crawl"))
    crawls = list(Crawl.objects.filter(pk__in=chosen).order_by("pk"))
    chart = chart_for(crawls)
    totals = [{"crawl": c, "found": s.found, "per_hundred": 100 * s.found / c.pages_fetched if c.pages_fetched else 0}
              for c, s in zip(crawls, chart.series)]
    context = {"chart": chart, "crawls": totals, "chosen": chosen,
               "choices": Crawl.objects.order_by("-pk")[:HARVEST_CHOICES]}
    return render(request, "frontier/harvest.html", context)
