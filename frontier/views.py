"""Dashboard pages of the layered frontier: "why is this Target here?" and layer counts per crawl."""
from django.contrib.admin.views.decorators import staff_member_required
from django.http import Http404
from django.shortcuts import get_object_or_404, render

from crawlweb.models import Crawl
from frontier.layers.base import LAYER_NAMES
from frontier.models import Target
from frontier.placement import explain_target, layer_counts

LIST_LIMIT = 200


@staff_member_required
def target_detail(request, pk):
    target = get_object_or_404(Target.objects.select_related("crawl", "site", "source_page"), pk=pk)
    return render(request, "frontier/target.html", {"target": target, **explain_target(target)})


@staff_member_required
def crawl_layers(request, pk):
    crawl = get_object_or_404(Crawl, pk=pk)
    return render(request, "frontier/crawl_layers.html", {"crawl": crawl, "modules": layer_counts(crawl)})


@staff_member_required
def layer_targets(request, pk, module, layer):
    crawl = get_object_or_404(Crawl, pk=pk)
    if layer not in LAYER_NAMES:
        raise Http404("layer must be 1, 2 or 3")
    targets = (Target.objects.filter(crawl=crawl, placements__module=module, placements__layer=layer)
               .order_by("-priority", "id").only("id", "url", "state", "priority", "depth")[:LIST_LIMIT])
    context = {"crawl": crawl, "module": module, "layer": layer, "layer_name": LAYER_NAMES[layer],
               "targets": targets, "limit": LIST_LIMIT}
    return render(request, "frontier/layer_targets.html", context)
