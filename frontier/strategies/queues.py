"""The two queues of the back/forward crawl and the ratio between them (crawl config "queue_ratio").

The backlink queue holds Targets of origin "backlink"; every other Target is in the forward
queue. A batch is leased from the queue furthest behind its share of the fetched pages (e.g.
{"backlink": 1, "forward": 3}: one page in four from backlinks), falling back to the other queue
when that one has nothing due. Within a queue the Targets' priorities (layers, rank) decide.
"""
from __future__ import annotations

from django.db.models import Q

from frontier.models import HostQueue, Target

BACKLINK_QUEUE = Q(origin=Target.Origin.BACKLINK)
FORWARD_QUEUE = ~Q(origin=Target.Origin.BACKLINK)


def queue_order(crawl) -> list[str] | None:
    """Queues to try for the next batch (HostQueue.Queue names), most wanted first; None when the
    crawl has one queue."""
    from frontier.strategies.registry import strategy_class
    from frontier.strategies.settings import DiscoverySettings

    cls = strategy_class(crawl.strategy)
    if cls is None or not cls.back_and_forth:
        return None
    try:
        ratio = DiscoverySettings.of(crawl).queue_ratio
    except ValueError:
        ratio = {"backlink": 1, "forward": 3}
    want_back, want_forward = float(ratio.get("backlink", 0)), float(ratio.get("forward", 0))
    # The share is of pages the scheduler chose; the BS Detector's own fetches are neither queue's.
    fetched = Target.objects.filter(crawl_id=crawl.pk, fetched_at__isnull=False).exclude(origin=Target.Origin.DETECTOR)
    back = fetched.filter(BACKLINK_QUEUE).count()
    total = fetched.count()
    share = want_back / (want_back + want_forward)
    # The queue whose share of fetched pages is below its wanted share goes first.
    if back < share * (total + 1):
        return [HostQueue.Queue.BACKLINK, HostQueue.Queue.FORWARD]
    return [HostQueue.Queue.FORWARD, HostQueue.Queue.BACKLINK]
