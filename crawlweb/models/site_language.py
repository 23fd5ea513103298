from django.db import models


class SiteLanguage(models.Model):
    """A site's South Slavic variety in one crawl, decided from all its stored pages
    (crawlweb.language.site_variety), and how many page labels the decision corrected."""

    crawl = models.ForeignKey("crawlweb.Crawl", on_delete=models.CASCADE, related_name="site_languages")
    site = models.ForeignKey("crawlweb.Site", on_delete=models.CASCADE, related_name="languages")
    variety = models.CharField(max_length=16, blank=True,
                               help_text="sr, hr, bs, cnr or mk; empty: no South Slavic page.")
    scores = models.JSONField(default=dict, blank=True)
    evidence = models.JSONField(default=dict, blank=True,
                                help_text="Declarations, country, script shares and the corrected pages.")
    pages = models.PositiveIntegerField(default=0)
    pages_corrected = models.PositiveIntegerField(default=0)
    decided_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["crawl", "site"]
        constraints = [models.UniqueConstraint(fields=["crawl", "site"], name="site_language_unique_per_crawl")]

    def __str__(self):
        return f"{self.site} ({self.variety or '-'})"
