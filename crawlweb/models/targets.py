from django.db import models
from django.db.models import Q


class Target(models.Model):
    """A URL the crawl may fetch, with the link context that brought it and its fetch outcome.

    The crawl engine's row (leasing hands it out, storing finishes it); the frontier's strategies and
    layers decide which Targets exist and their priority. Its app stays "frontier" (its table
    frontier_target and its migrations are the frontier app's): only the file it is written in is
    the engine's, the floor that uses it (docs/explanation/architecture.md)."""

    class Origin(models.TextChoices):
        SEED = "seed"
        FORWARD = "forward"
        BACKLINK = "backlink"
        RECYCLED = "recycled"
        REDIRECT = "redirect"
        DEEP_GUESS = "deep", "deep-page guess"
        DETECTOR = "detector", "BS Detector check"
        REFILL = "refill", "refill of a back/forward crawl's dry queues"
        SITEMAP = "sitemap", "a site's sitemap or an entry of it"

    class State(models.TextChoices):
        PENDING = "pending"
        LEASED = "leased"
        DONE = "done"
        FAILED = "failed"
        SKIPPED = "skipped", "skipped (robots, excluded, refused)"
        # A page of a site judged bilingual that a back/forward crawl keeps for its refill: never leased
        # until the refill releases it, when the crawl has nothing else due (frontier.strategies.refill).
        HELD = "held", "held for the refill"

    crawl = models.ForeignKey("crawlweb.Crawl", on_delete=models.CASCADE, related_name="targets")
    url = models.CharField(max_length=2000, help_text="Normalized URL: unique per crawl.")
    url_as_linked = models.CharField(max_length=2000, blank=True,
                                     help_text="As written in the link, fragment included (the Language module reads it).")
    host = models.ForeignKey("crawlweb.Host", on_delete=models.CASCADE, related_name="targets")
    site = models.ForeignKey("crawlweb.Site", on_delete=models.CASCADE, related_name="targets")
    origin = models.CharField(max_length=20, choices=Origin.choices, default=Origin.FORWARD)
    source_page = models.ForeignKey("crawlweb.Page", null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    anchor_text = models.CharField(max_length=1000, blank=True)
    text_around = models.CharField(max_length=2000, blank=True)
    img_alt = models.CharField(max_length=500, blank=True)
    img_src = models.CharField(max_length=2000, blank=True)
    depth = models.PositiveIntegerField(default=0)
    state = models.CharField(max_length=20, choices=State.choices, default=State.PENDING)
    priority = models.FloatField(default=0.0, help_text="Higher is fetched earlier.")
    due_at = models.DateTimeField(null=True, blank=True, help_text="Not before this time (retry backoff).")
    lease_owner = models.CharField(max_length=200, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    status_code = models.IntegerField(null=True, blank=True)
    error_kind = models.CharField(max_length=40, blank=True, db_index=True)
    last_error = models.TextField(blank=True)
    page = models.ForeignKey("crawlweb.Page", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="targets")
    fetched_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "frontier"
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["crawl", "url"], name="target_url_unique_per_crawl")]
        indexes = [
            models.Index(fields=["crawl", "state", "-priority", "id"], name="target_lease_order"),
            # A host's best pending Target is the first entry of this index (leasing.py asks
            # that once per free host and batch): no sort, no walk over its other Targets.
            models.Index(fields=["crawl", "host", "state", "-priority", "id"], name="target_host_best"),
            # A host's postponed Targets (retries): when its HostQueue row must wake (crawlweb.services.host_queues).
            models.Index(fields=["crawl", "host", "due_at"], name="target_postponed",
                         condition=Q(state="pending", due_at__isnull=False)),
            # A site's shallowest pending Targets (M03's current Targets, frontier.placement): the first
            # entries, read without walking a big site's thousands of others at every batch.
            models.Index(fields=["crawl", "site", "depth", "id"], name="target_site_shallowest",
                         condition=Q(state="pending")),
        ]

    def __str__(self):
        return self.url

