from django.db import models


class Site(models.Model):
    """A web site, keyed by host without a leading www.; groups hosts, pages and verdicts."""

    name = models.CharField(max_length=255, unique=True)
    registrable_domain = models.CharField(max_length=255, db_index=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class Host(models.Model):
    """One host name, with its robots.txt cache and its politeness clock.

    The clock lives here, in the database, so every worker on every machine sees the same one.
    """

    name = models.CharField(max_length=255, unique=True)
    site = models.ForeignKey(Site, on_delete=models.CASCADE, related_name="hosts")
    robots = models.JSONField(default=dict, blank=True, help_text="The cached robots.txt policy (raw text, status).")
    robots_status = models.IntegerField(null=True, blank=True)
    robots_expires_at = models.DateTimeField(null=True, blank=True)
    crawl_delay = models.FloatField(null=True, blank=True)
    next_fetch_at = models.DateTimeField(null=True, blank=True, db_index=True,
                                         help_text="No request to this host before this time.")
    busy_until = models.DateTimeField(null=True, blank=True,
                                      help_text="A request is in flight until then (expires with its lease).")
    last_served_at = models.DateTimeField(null=True, blank=True,
                                          help_text="Round-robin: least recently served hosts go first.")

    class Meta:
        ordering = ["name"]
        indexes = [
            # Hosts with a request in flight (the live panel's count, the admin's clock filter): the
            # few whose busy_until is set, not a scan of every host.
            models.Index(fields=["busy_until"], name="host_busy", condition=models.Q(busy_until__isnull=False)),
        ]

    def __str__(self):
        return self.name
