"""Crawl-step follow-up of the layered frontier (registered in crawlweb.services.followups).

After each step of a crawl that configures modules: the URLs of the pages it stored go into M03's
GC of their sites (inline: a few rows, and the Targets those pages linked to must be placed
against the updated GC), and its new Targets are queued for placement (queue "score").
"""
from __future__ import annotations

from frontier.jobs import enqueue_placement
from frontier.placement import frontier_settings, record_crawled


def after_step(crawl, step) -> None:
    frontier = frontier_settings(crawl.config)
    if frontier is None:
        return  # no modules configured: breadth-first, nothing to place
    if frontier.uses_structure and step.stored_page_ids:
        record_crawled(crawl.pk, step.stored_page_ids)
    if step.new_target_ids:
        enqueue_placement(crawl.pk, step.new_target_ids)
