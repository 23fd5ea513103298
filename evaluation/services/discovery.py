"""Incremental site discovery (Pupsniffer method 5, Def. 6–8) over the crawl's site-level link graph.

The seed sites W are the crawl's scored sites (each one row of SiteCredibility, hosts of one
registrable domain merged as in inputs.py).  Edges come from the stored out-of-site links.
Every external site (no page in the crawl) is ranked by ΣLinkout, ΣPR and ΣWPR of the seed
sites linking to it; the top K by the chosen measure become seed Targets of the crawl.

Iterations (PAIRS_DISCOVERY_ITERATIONS) go through the normal crawl, not around it: each ranking
adds its seeds and lets the crawl fetch them (a finished crawl is started again, its budget
raised to PAIRS_DISCOVERY_PAGES_PER_SITE pages per new seed when less is left; a running crawl
just goes on).  When that crawl round finishes, the crawl-finish follow-up runs score_crawl, and
score_crawl calls continue_discovery: the next ranking, over the seed set grown by the sites
just crawled and scored.  No process waits in between, so it works the same with RQ workers and
in-process jobs; the last ranking's seeds are crawled too, then scored by the finish pass.
"""
from __future__ import annotations

from collections import Counter
from urllib.parse import urlsplit

from django.db import transaction
from django.db.models import F

from crawlweb.crawler.urls import site_name
from crawlweb.models import Crawl, Link, Site
from crawlweb.jobs.crawl_control import start_crawl
from crawlweb.services.followups import StepResult, run_followups
from crawlweb.services.targets import Candidate, add_targets
from evaluation.models import DiscoveredSite, DiscoveryRun, SiteCredibility
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


def discover(crawl_id: int, cfg: PairsSettings | None = None, *, iteration: int = 1) -> list[DiscoveredSite]:
    """One ranking over the current seed sites; the top K external sites become seed Targets.
    Stored as this iteration's DiscoveredSite rows (a rerun of the iteration replaces them)."""
    from evaluation.pairing.discovery import seed_scores

    cfg = cfg or PairsSettings.current()
    crawl = Crawl.objects.get(pk=crawl_id)
    seeds, edges, credibility, roots = site_graph(crawl_id, cfg.group_max_sites)
    ranked = rank_sites(seeds, edges, credibility, top_k=len(edges) + 1, measure=cfg.discovery_measure)
    scores = seed_scores(seeds, edges, credibility)
    top = ranked[:cfg.discovery_top_k]
    new_ids: list[int] = []
    with transaction.atomic():
        for row in SiteCredibility.objects.filter(crawl_id=crawl_id).select_related("site"):
            name = row.site.name
            row.linkout, row.pagerank, row.wpr = scores.linkout[name], scores.pagerank[name], scores.wpr[name]
            row.save(update_fields=["linkout", "pagerank", "wpr"])
        if top:
            new_ids = add_targets(crawl, [Candidate(roots[d.site]) for d in top], origin=Target.Origin.SEED).new_ids
        seeded = set(Target.objects.filter(crawl_id=crawl_id, url__in=[roots[d.site] for d in top])
                     .values_list("url", flat=True))
        DiscoveredSite.objects.filter(crawl_id=crawl_id, iteration=iteration).delete()
        rows = [DiscoveredSite(crawl_id=crawl_id, host=d.site, sum_linkout=d.sum_linkout, sum_pr=d.sum_pr,
                               sum_wpr=d.sum_wpr, measure=cfg.discovery_measure, rank=rank,
                               linked_from=list(d.linked_from), added_as_seed=rank <= cfg.discovery_top_k
                               and roots[d.site] in seeded, iteration=iteration)
                for rank, d in enumerate(ranked, 1)]
        DiscoveredSite.objects.bulk_create(rows, batch_size=500)
    if new_ids:  # frontier modules place the new seeds like any new Target
        run_followups(crawl, StepResult(crawl_id, new_target_ids=new_ids))
    return rows


def start_discovery(crawl_id: int, iterations: int | None = None, cfg: PairsSettings | None = None) -> DiscoveryRun:
    """Begin (or begin again) discovery: the first ranking now, the others as crawl rounds end."""
    cfg = cfg or PairsSettings.current()
    iterations = iterations or cfg.discovery_iterations
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, got {iterations}")
    with transaction.atomic():
        DiscoveredSite.objects.filter(crawl_id=crawl_id).delete()
        DiscoveryRun.objects.update_or_create(crawl_id=crawl_id, defaults=dict(
            iterations=iterations, iteration=0, waiting=False, finished=False, seeds_added=0))
    return _iterate(crawl_id, cfg)


def continue_discovery(crawl_id: int, cfg: PairsSettings | None = None) -> DiscoveryRun | None:
    """After a crawl-wide scoring pass: the next ranking, if a discovery round was waiting for the
    crawl to finish (taken by a conditional update, so two passes cannot both go on)."""
    if not Crawl.objects.filter(pk=crawl_id, state=Crawl.State.FINISHED).exists():
        return None
    if not DiscoveryRun.objects.filter(crawl_id=crawl_id, waiting=True).update(waiting=False):
        return None
    return _iterate(crawl_id, cfg or PairsSettings.current())


def _iterate(crawl_id: int, cfg: PairsSettings) -> DiscoveryRun:
    run = DiscoveryRun.objects.get(crawl_id=crawl_id)
    iteration = run.iteration + 1
    seeds = sum(row.added_as_seed for row in discover(crawl_id, cfg, iteration=iteration))
    more = seeds > 0 and iteration < run.iterations
    # Recorded before the round starts: with synchronous jobs the round runs inside crawl_round.
    DiscoveryRun.objects.filter(pk=crawl_id).update(iteration=iteration, waiting=more, finished=not more,
                                                    seeds_added=F("seeds_added") + seeds)
    if seeds:
        crawl_round(crawl_id, seeds, cfg.discovery_pages_per_site)
    run.refresh_from_db()
    return run


def crawl_round(crawl_id: int, new_sites: int, pages_per_site: int) -> None:
    """Let the crawl fetch the new seeds: enough budget for them, and the crawl running."""
    crawl = Crawl.objects.get(pk=crawl_id)
    needed = new_sites * pages_per_site
    if crawl.budget_left < needed:
        Crawl.objects.filter(pk=crawl_id).update(page_budget=crawl.pages_fetched + needed)
        crawl.refresh_from_db()
    if crawl.state in (Crawl.State.NEW, Crawl.State.FINISHED, Crawl.State.STOPPED):
        start_crawl(crawl)
    # running: it goes on and fetches them; paused: they wait for the operator's resume
