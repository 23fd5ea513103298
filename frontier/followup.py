"""Crawl-step follow-up of the layered frontier (registered in crawlweb.services.followups).

After each step of a crawl that configures modules: the URLs of the pages it stored go into M03's
GC of their sites (inline: a few rows, and the Targets those pages linked to must be placed
against the updated GC), and its new Targets are queued for placement (queue "score"). When a crawl's
steps are taken over from a process that died (embedded mode), its pending Targets that no module
placed, whose placement jobs died with that process, are queued for placement again.
"""
from __future__ import annotations

from frontier.jobs import enqueue_placement
from frontier.models import Target
from frontier.placement import frontier_settings, record_crawled


def after_step(crawl, step) -> None:
    frontier = frontier_settings(crawl.config)
    if frontier is None:
        return  # no modules configured: breadth-first, nothing to place
    if frontier.uses_structure and step.stored_page_ids:
        record_crawled(crawl.pk, step.stored_page_ids)
    if step.new_target_ids:
        enqueue_placement(crawl.pk, step.new_target_ids)


def after_takeover(crawl) -> None:
    if frontier_settings(crawl.config) is None:
        return
    unplaced = Target.objects.filter(crawl=crawl, state=Target.State.PENDING, placements__isnull=True)
    enqueue_placement(crawl.pk, unplaced.values_list("pk", flat=True))
