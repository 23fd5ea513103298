"""Frontier jobs: placing new Targets with the crawl's layer modules (queue "score").

Jobs take ids, reload their rows and are safe to run twice (see frontier.placement).
"""
from __future__ import annotations

from collections.abc import Iterable

from crawlweb.jobs.queueing import enqueue
from crawlweb.models import Crawl
from frontier import placement

# Targets per job: one module batch. M01's TF-IDF model and M03's GT are built per batch, so a
# batch should hold a step's new Targets together; a step rarely adds more than this.
BATCH_SIZE = 500


def place_targets(crawl_id: int, target_ids: list[int]) -> int:
    """Job: place one batch of a crawl's Targets; returns the number of Targets placed by some module."""
    try:
        report = placement.place_targets(crawl_id, target_ids)
    except Exception as error:  # recorded where the operator looks (the crawl page), then re-raised for RQ
        Crawl.objects.filter(pk=crawl_id).update(last_error=f"place_targets: {type(error).__name__}: {error}"[:5000])
        raise
    return max(report.placed.values(), default=0)


def enqueue_placement(crawl_id: int, target_ids: Iterable[int]) -> int:
    """Enqueue place_targets over ``target_ids`` in batches of BATCH_SIZE; returns jobs enqueued."""
    ids = sorted(set(target_ids))
    batches = [ids[start:start + BATCH_SIZE] for start in range(0, len(ids), BATCH_SIZE)]
    for batch in batches:
        enqueue(place_targets, crawl_id, batch, queue_name="score")
    return len(batches)
