from datetime import datetime, timezone

from django.db import models
from django.db.models import Q

# served_at of a host never served: before every real time, as a NULL last_served_at sorts first.
NEVER_SERVED = datetime(1970, 1, 1, tzinfo=timezone.utc)
# The rows leasing walks (the condition of its indexes; lease_walk asks the same).
LEASABLE = Q(best_priority__isnull=False, asleep_until__isnull=True)


class HostQueue(models.Model):
    """One host's pending Targets in one queue of one crawl, summed up for leasing: the best
    priority among them, and when postponed ones fall due.

    Leasing walks these rows in its order (best priority, then least recently served) instead of
    asking every host for its best Target: a batch reads about as many rows as it leases, however
    many Targets and hosts the crawl has (docs/scale.md, "Frontier of millions").

    Database triggers (migration 0008) keep the row from falling behind its Targets: a Target made
    pending, or given a higher priority, raises ``best_priority``; one postponed (``due_at``) moves
    ``wake_at`` to its due time if earlier (leasing refreshes the row then). Nothing lowers it there:
    leasing does (crawlweb.services.host_queues), for the hosts it leases and for rows it finds above their
    Targets. So ``best_priority`` is an upper bound of the priority of the host's pending Targets due
    now, and exact for nearly every row.

    A host busy or waiting for its politeness clock is taken out of the order until it is free
    (``asleep_until``): when it is leased, released (leasing.release_hosts) or found not free by a
    walk. So the hosts at the top of the order that wait for their clocks, as the hosts a crawl is
    busy with do, cost nothing to the next batches.
    """

    class Queue(models.TextChoices):
        # frontier.strategies.queues: Targets of origin "backlink" are the backlink queue, all
        # others the forward queue (a one-queue crawl leases from both rows of a host alike).
        FORWARD = "forward"
        BACKLINK = "backlink"

    crawl = models.ForeignKey("crawlweb.Crawl", on_delete=models.CASCADE, related_name="+", db_index=False)
    host = models.ForeignKey("crawlweb.Host", on_delete=models.CASCADE, related_name="+")
    queue = models.CharField(max_length=10, choices=Queue.choices)
    best_priority = models.FloatField(null=True, help_text="At least the priority of every pending Target "
                                                           "due now (None: none is due before wake_at).")
    wake_at = models.DateTimeField(null=True, help_text="At or before the due time of each postponed Target: "
                                                        "the row is refreshed then.")
    served_at = models.DateTimeField(default=NEVER_SERVED, help_text="The host's last_served_at (a trigger "
                                                                      "copies it), for the round-robin order.")
    asleep_until = models.DateTimeField(null=True, help_text="The host is busy or waits for its politeness clock "
                                                             "until then: the row is out of the lease order.")

    class Meta:
        app_label = "frontier"  # its table and migrations are the frontier app's (see Target)
        constraints = [models.UniqueConstraint(fields=["crawl", "host", "queue"], name="hostqueue_one_per_queue")]
        indexes = [
            # The lease order of a two-queue crawl (one queue at a time) and of a one-queue crawl.
            # Rows with nothing due, and rows of hosts known to be busy or waiting, are not in it.
            models.Index(fields=["crawl", "queue", "-best_priority", "served_at", "host"],
                         name="hostqueue_lease_order", condition=LEASABLE),
            models.Index(fields=["crawl", "-best_priority", "served_at", "host"], name="hostqueue_any_order",
                         condition=LEASABLE),
            # rows to refresh before a batch: a postponed Target fell due, a host is free again
            models.Index(fields=["crawl", "wake_at"], name="hostqueue_wake", condition=Q(wake_at__isnull=False)),
            models.Index(fields=["crawl", "asleep_until"], name="hostqueue_asleep",
                         condition=Q(asleep_until__isnull=False)),
        ]

    def __str__(self):
        return f"{self.host_id} {self.queue} {self.best_priority}"
