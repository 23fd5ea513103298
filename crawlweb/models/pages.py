from django.db import models


class Page(models.Model):
    """One fetched document of a crawl; every URL that led to the same content points to it."""

    crawl = models.ForeignKey("crawlweb.Crawl", on_delete=models.CASCADE, related_name="pages")
    site = models.ForeignKey("crawlweb.Site", on_delete=models.CASCADE, related_name="pages")
    host = models.ForeignKey("crawlweb.Host", on_delete=models.CASCADE, related_name="pages")
    url = models.CharField(max_length=2000, help_text="URL first requested for this content.")
    final_url = models.CharField(max_length=2000, help_text="URL after redirects.")
    status_code = models.IntegerField()
    content_type = models.CharField(max_length=200, blank=True)
    charset = models.CharField(max_length=50, blank=True)
    md5 = models.CharField(max_length=32, db_index=True)
    size = models.PositiveIntegerField(default=0)
    truncated = models.BooleanField(default=False)
    headers = models.JSONField(default=dict, blank=True,
                               help_text="Headers that matter: etag, last-modified, content-language, ...")
    title = models.CharField(max_length=1000, blank=True)
    language = models.CharField(max_length=16, blank=True, db_index=True)
    script = models.CharField(max_length=8, blank=True)
    html_lang = models.CharField(max_length=32, blank=True)
    language_evidence = models.JSONField(
        default=dict, blank=True,
        help_text="The page's own language evidence (crawlweb.language.site_variety.page_observation); "
                  "its 'lang' is the page's label before the site's decision (SiteLanguage) corrected it.")
    text = models.TextField(blank=True)
    headings = models.JSONField(default=list, blank=True)
    meta_keywords = models.CharField(max_length=2000, blank=True)
    meta_description = models.CharField(max_length=2000, blank=True)
    canonical_url = models.CharField(max_length=2000, blank=True)
    tag_signature = models.TextField(
        blank=True, help_text="The page's tag and text-run sequence (crawlweb.crawler.structure), for STRAND.")
    runs_scripts = models.BooleanField(
        null=True, blank=True,
        help_text="Whether the HTML has a <script> element or an event handler (null: not HTML, or stored before "
                  "this was recorded); the BS Detector renders no page that runs none.")
    fetched_at = models.DateTimeField()
    modified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["crawl", "md5"], name="page_content_unique_per_crawl")]

    def __str__(self):
        return self.final_url


class Link(models.Model):
    """An edge seen in a page, with the contexts the classifiers read."""

    page = models.ForeignKey(Page, on_delete=models.CASCADE, related_name="links")
    target_url = models.CharField(max_length=2000, db_index=True, help_text="Normalized target URL.")
    url_as_linked = models.CharField(max_length=2000, help_text="Absolute URL as written, fragment kept.")
    kind = models.CharField(max_length=20, default="a",
                            help_text="a, alternate, canonical, area, frame, onclick or redirect.")
    anchor_text = models.CharField(max_length=1000, blank=True)
    text_around = models.CharField(max_length=2000, blank=True)
    img_alt = models.CharField(max_length=500, blank=True)
    img_src = models.CharField(max_length=2000, blank=True)
    rel = models.CharField(max_length=100, blank=True)
    hreflang = models.CharField(max_length=32, blank=True)
    out_of_site = models.BooleanField(default=False)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return f"{self.page_id} -> {self.target_url}"
