"""The two queues of the back/forward crawl and the ratio between them (crawl config "queue_ratio").

The backlink queue holds Targets of origin "backlink"; every other Target is in the forward
queue. A batch is leased from the queue furthest behind its share of the fetched pages (e.g.
{"backlink": 1, "forward": 3}: one page in four from backlinks), falling back to the other queue
when that one has nothing due. Within a queue the Targets' priorities (layers, rank) decide.
"""
from __future__ import annotations

from frontier.models import HostQueue, Target

# A Target the crawl has fetched (or tried to) ends in one of these states. "not_retried" marks a
# Target made for a detector's or follow-up's own fetch and never chosen by the scheduler.
FETCHED_STATES = (Target.State.DONE, Target.State.FAILED, Target.State.SKIPPED)
NOT_CHOSEN_ERROR = "not_retried"


def queue_order(crawl) -> list[str] | None:
    """Queues to try for the next batch (HostQueue.Queue names), most wanted first; None when the
    crawl has one queue."""
    from frontier.strategies.registry import strategy_class
    from frontier.discovery_settings import DiscoverySettings

    cls = strategy_class(crawl.strategy)
    if cls is None or not cls.back_and_forth:
        return None
    try:
        ratio = DiscoverySettings.of(crawl).queue_ratio
    except ValueError:
        ratio = {"backlink": 1, "forward": 3}
    want_back, want_forward = float(ratio.get("backlink", 0)), float(ratio.get("forward", 0))
    back, total = fetched_by_queue(crawl.pk)
    share = want_back / (want_back + want_forward)
    # The queue whose share of fetched pages is below its wanted share goes first.
    if back < share * (total + 1):
        return [HostQueue.Queue.BACKLINK, HostQueue.Queue.FORWARD]
    return [HostQueue.Queue.FORWARD, HostQueue.Queue.BACKLINK]


def fetched_by_queue(crawl_id: int) -> tuple[int, int]:
    """(backlink Targets fetched, all Targets fetched) of those the scheduler chose: the BS
    Detector's own fetches are neither queue's. Read from the crawl's Target tallies (a few hundred
    rows), not by counting its fetched Targets, which at millions took seconds per batch."""
    from crawlweb.tallies.reads import target_groups

    back = total = 0
    for group in target_groups([crawl_id], "state", "origin", "error_kind"):
        if (group["state"] not in FETCHED_STATES or group["origin"] == Target.Origin.DETECTOR
                or group["error_kind"] == NOT_CHOSEN_ERROR):
            continue
        total += group["n"]
        if group["origin"] == Target.Origin.BACKLINK:
            back += group["n"]
    return back, total
