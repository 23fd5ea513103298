"""Bilingual site discovery records: the BS Detector's verdicts and the online link classifiers."""
from django.db import models


class SiteVerdict(models.Model):
    """The Bilingual Site Detector's decision on one site of a crawl (Barbosa et al. 2011, Sec. 2.1).

    ``evidence`` keeps what the decision rests on: the input page, the pages whose links scored at
    least the minimum likelihood, their languages and link scores."""

    crawl = models.ForeignKey("crawlweb.Crawl", on_delete=models.CASCADE, related_name="site_verdicts")
    site = models.ForeignKey("crawlweb.Site", on_delete=models.CASCADE, related_name="verdicts")
    page = models.ForeignKey("crawlweb.Page", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                             help_text="The input page the detector read.")
    bilingual = models.BooleanField()
    evidence = models.JSONField(default=dict, blank=True,
                                help_text="{page, pages: [{url, score, language}], languages, link_scores, ...}")
    pages_downloaded = models.PositiveIntegerField(default=0, help_text="Pages fetched for this decision.")
    pages_fetched_at_decision = models.PositiveIntegerField(
        default=0, help_text="The crawl's fetched-page count when the verdict was stored (harvest curve).")
    decided_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["decided_at", "id"]
        constraints = [models.UniqueConstraint(fields=["crawl", "site"], name="one_verdict_per_site_and_crawl")]

    def __str__(self):
        return f"{self.site} {'bilingual' if self.bilingual else 'not bilingual'}"


class ClassifierModel(models.Model):
    """A versioned Backlink or Forward-Link classifier learned during a crawl (Sec. 2.2)."""

    class Kind(models.TextChoices):
        BACKLINK = "backlink"
        FORWARD = "forward"

    crawl = models.ForeignKey("crawlweb.Crawl", on_delete=models.CASCADE, related_name="classifier_models")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    version = models.PositiveIntegerField()
    bytes = models.BinaryField(help_text="LinkClassifier.to_bytes()")
    trained_on = models.JSONField(default=dict, blank=True, help_text="{relevant: n, irrelevant: n}")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["crawl_id", "kind", "-version"]
        constraints = [models.UniqueConstraint(fields=["crawl", "kind", "version"], name="one_classifier_version")]

    def __str__(self):
        return f"{self.kind} classifier v{self.version}"


class RefillCursor(models.Model):
    """The last stored Link a stage of a back/forward crawl's refill has read (frontier.strategies.refill):
    the next refill reads on from there, not the crawl's first links again."""

    crawl = models.ForeignKey("crawlweb.Crawl", on_delete=models.CASCADE, related_name="+")
    stage = models.CharField(max_length=40)
    last_link_id = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["crawl", "stage"], name="one_refill_cursor_per_stage")]

    def __str__(self):
        return f"{self.stage} after link {self.last_link_id}"
