"""A crawl's counts twice: read from its tallies (crawlweb.tallies.reads, what the dashboard shows) and
counted directly from its rows; tests assert the two are equal."""
from __future__ import annotations

from django.db.models import Count, Q

from crawlweb.models import Page
from crawlweb.tallies import reads
from frontier.models import LayerPlacement, Target


def counted(crawl_id: int) -> dict:
    targets = Target.objects.filter(crawl_id=crawl_id)
    pages = Page.objects.filter(crawl_id=crawl_id)
    layers = (LayerPlacement.objects.filter(target__crawl_id=crawl_id).values_list("module", "layer", "layer_id")
              .annotate(n=Count("id"), pending=Count("id", filter=Q(target__state="pending"))))
    return {
        "targets": {(s, o, e): n for s, o, e, n in targets.values_list("state", "origin", "error_kind")
                    .annotate(n=Count("id")).order_by()},
        "pages": {(lang, script): n for lang, script, n in pages.values_list("language", "script")
                  .annotate(n=Count("id")).order_by()},
        "layers": {(m, layer, lid): (n, p) for m, layer, lid, n, p in layers.order_by()},
        "sites": pages.values("site").distinct().count(),
        "hosts_with_work": targets.filter(state__in=("pending", "leased")).values("host").distinct().count(),
    }


def tallied(crawl_id: int) -> dict:
    members, _ = reads.member_counts([crawl_id], (reads.SITE_PAGES, reads.HOST_WORK))
    return {
        "targets": {(r["state"], r["origin"], r["error_kind"]): r["n"]
                    for r in reads.target_groups([crawl_id], "state", "origin", "error_kind")},
        "pages": {(r["language"], r["script"]): r["n"] for r in reads.page_groups(crawl_id)},
        "layers": {(r["module"], r["layer"], r["layer_id"]): (r["n"], r["pending"]) for r in reads.layer_groups(crawl_id)},
        "sites": members[(crawl_id, reads.SITE_PAGES)],
        "hosts_with_work": members[(crawl_id, reads.HOST_WORK)],
    }


def assert_tallies_match(crawl_id: int, what: str = "") -> dict:
    """The tallies equal the direct counts (returns them, for further checks)."""
    direct = counted(crawl_id)
    assert tallied(crawl_id) == direct, what
    return direct
