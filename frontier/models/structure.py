"""What the Structure module M03 keeps per (crawl, site) between iterations: GC and GB."""
from django.db import models


class SiteStructure(models.Model):
    """M03's persisted graphs of one site in one crawl (SiteStructureState.to_dict()).

    GC (crawled URLs, initial node score 2) and GB (the redistribution bonus graph) live in the
    crawl's context, as the method says; GT and GD are rebuilt every iteration and never stored.
    """

    crawl = models.ForeignKey("crawlweb.Crawl", on_delete=models.CASCADE, related_name="site_structures")
    site = models.ForeignKey("crawlweb.Site", on_delete=models.CASCADE, related_name="structures")
    state = models.JSONField(default=dict, blank=True,
                             help_text="{version, gc: {node: score}, gb: {node: bonus}, crawled: [...]}")
    iterations = models.PositiveIntegerField(default=0, help_text="Placement batches of this site M03 distributed.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["crawl_id", "site_id"]
        constraints = [models.UniqueConstraint(fields=["crawl", "site"], name="one_structure_per_site_and_crawl")]

    def __str__(self):
        return f"M03 state of {self.site_id} in crawl {self.crawl_id}"
