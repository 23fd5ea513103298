"""Incremental site discovery (Pupsniffer Def. 6–8) over the crawl's site-level link graph.

The seed sites W are the crawl's scored sites (each one row of SiteCredibility, hosts of one
registrable domain merged as in inputs.py).  Edges come from the stored out-of-site links.
Every external site (no page in the crawl) is ranked by ΣLinkout, ΣPR and ΣWPR of the seed
sites linking to it; the top K by the chosen measure become seed Targets of the crawl.
"""
from __future__ import annotations

from collections import Counter
from urllib.parse import urlsplit

from django.db import transaction

from crawlweb.crawler.urls import site_name
from crawlweb.models import Crawl, Link, Site
from crawlweb.services.targets import Candidate, add_targets
from evaluation.models import DiscoveredSite, SiteCredibility
from evaluation.pairing.discovery import discover_sites as rank_sites
from evaluation.services.config import PairsSettings
from evaluation.services.inputs import site_group
from frontier.models import Target


def site_graph(crawl_id: int, max_sites: int):
    """(seed names, edges {(from, to): links}, C(w) by name, a root URL per external site)."""
    scored = {c.site.name: c for c in SiteCredibility.objects.filter(crawl_id=crawl_id).select_related("site")}
    canonical: dict[str, str] = {}
    for site in Site.objects.filter(pages__crawl_id=crawl_id).distinct():
        canonical[site.name] = site_group(crawl_id, site, max_sites)[0].name
    edges: Counter = Counter()
    roots: dict[str, str] = {}
    links = Link.objects.filter(page__crawl_id=crawl_id, out_of_site=True, kind="a").values_list(
        "page__site__name", "target_url")
    for source_name, target_url in links.iterator(chunk_size=5000):
        parts = urlsplit(target_url)
        if not parts.hostname:
            continue
        target = site_name(parts.hostname)
        target = canonical.get(target, target)
        source = canonical.get(source_name, source_name)
        if source != target:
            edges[(source, target)] += 1
            roots.setdefault(target, f"{parts.scheme}://{parts.netloc}/")
    credibility = {name: row.credibility for name, row in scored.items()}
    return list(scored), dict(edges), credibility, roots


def discover(crawl_id: int, cfg: PairsSettings | None = None) -> list[DiscoveredSite]:
    from evaluation.pairing.discovery import seed_scores

    cfg = cfg or PairsSettings.current()
    crawl = Crawl.objects.get(pk=crawl_id)
    seeds, edges, credibility, roots = site_graph(crawl_id, cfg.group_max_sites)
    ranked = rank_sites(seeds, edges, credibility, top_k=len(edges) + 1, measure=cfg.discovery_measure)
    scores = seed_scores(seeds, edges, credibility)
    top = ranked[:cfg.discovery_top_k]
    with transaction.atomic():
        for row in SiteCredibility.objects.filter(crawl_id=crawl_id).select_related("site"):
            name = row.site.name
            row.linkout, row.pagerank, row.wpr = scores.linkout[name], scores.pagerank[name], scores.wpr[name]
            row.save(update_fields=["linkout", "pagerank", "wpr"])
        if top:
            add_targets(crawl, [Candidate(roots[d.site]) for d in top], origin=Target.Origin.SEED)
        seeded = set(Target.objects.filter(crawl_id=crawl_id, url__in=[roots[d.site] for d in top])
                     .values_list("url", flat=True))
        DiscoveredSite.objects.filter(crawl_id=crawl_id).delete()
        rows = [DiscoveredSite(crawl_id=crawl_id, host=d.site, sum_linkout=d.sum_linkout, sum_pr=d.sum_pr,
                               sum_wpr=d.sum_wpr, measure=cfg.discovery_measure, rank=rank,
                               linked_from=list(d.linked_from), added_as_seed=rank <= cfg.discovery_top_k
                               and roots[d.site] in seeded, iteration=cfg.discovery_iterations)
                for rank, d in enumerate(ranked, 1)]
        DiscoveredSite.objects.bulk_create(rows, batch_size=500)
    return rows
