"""What the Structure module M03 keeps per (crawl, site) between iterations: GC and GB, node by node."""
from django.db import models


class SiteStructure(models.Model):
    """M03's graphs of one site in one crawl: this row is their lock and their count of iterations;
    the graphs are its SiteStructureNode rows.

    GC (crawled URLs, initial node score 2) and GB (the redistribution bonus graph) live in the
    crawl's context, as the method says; GT and GD are rebuilt every iteration and never stored.
    """

    crawl = models.ForeignKey("crawlweb.Crawl", on_delete=models.CASCADE, related_name="site_structures")
    site = models.ForeignKey("crawlweb.Site", on_delete=models.CASCADE, related_name="structures")
    iterations = models.PositiveIntegerField(default=0, help_text="Placement batches of this site M03 distributed.")
    replaced_at_pages = models.PositiveIntegerField(
        default=0, help_text="Crawled pages in GC when the site's other pending Targets were last placed again "
                             "(M03 replace_growth).")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["crawl_id", "site_id"]
        constraints = [models.UniqueConstraint(fields=["crawl", "site"], name="one_structure_per_site_and_crawl")]

    def __str__(self):
        return f"M03 state of {self.site_id} in crawl {self.crawl_id}"


class SiteStructureNode(models.Model):
    """One folder node of a site's GC and GB (SiteStructureState.gc / .gb).

    A row per node, not one document per site: a crawl step changes the nodes on the paths of the
    pages it stored, and only those rows are written. A whole-site document was rewritten at every
    step that touched the site, and a big site's rewrites left hundreds of MB of dead TOAST behind.
    """

    structure = models.ForeignKey(SiteStructure, on_delete=models.CASCADE, related_name="nodes")
    node = models.TextField(help_text='Folder path, e.g. "/sr/vesti/"; "/" is the site\'s top folder.')
    gc = models.IntegerField(null=True, blank=True, help_text="GC score; empty: GC has no such node.")
    gb = models.FloatField(null=True, blank=True, help_text="GB bonus; empty: GB has no such node.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["structure", "node"], name="one_node_per_structure")]

    def __str__(self):
        return f"{self.node} of {self.structure}"
