"""Parallel page pairs found in a crawl (Pupsniffer): patterns, site credibility, candidate pairs.

Orientation: a crawl pairs ``crawl.source_language`` (default "sr") with ``crawl.target_language``
(default "en").  The pure library (evaluation/pairing) is called with
``languages=(source_language, target_language)``, so everywhere in these tables the left side is
the source language: a pattern ⟨t, t′⟩ has t = source-language unit (⟨sr, en⟩, ⟨srpski, english⟩,
⟨sr, ε⟩ for about-sr.html ↔ about.html) and CandidatePair.source_* is the source-language page.
(The issue writes the same patterns the other way round, ⟨en, sr⟩; Def. 1–5 are symmetric.)

Everything here is recomputed by the "score" jobs (evaluation/jobs.py) and safe to rebuild.
"""
from django.db import models
from django.db.models import F, FloatField, Q, Sum, Value

from evaluation.pairing.records import pattern_label


class UrlPatternQuerySet(models.QuerySet):
    def global_rows(self, crawl_id: int):
        """The crawl's global rows (Def. 4) with C(k) annotated as ``global_credibility``.

        C(k) = Σᵢ (N(k,wᵢ)/N)·C(k,wᵢ) = (Σᵢ N(k,wᵢ)·C(k,wᵢ)) / N, and N (the pages of every scored site)
        changes each time any site is scored: stored in each row, it made every scoring rewrite every
        global row. Only the sum is stored; the division happens as the rows are read."""
        pages = total_scored_pages(crawl_id)
        return self.filter(crawl_id=crawl_id, site__isnull=True).annotate(
            global_credibility=F("global_credibility_unnormalized") * Value(1.0 / pages if pages else 0.0,
                                                                             output_field=FloatField()))


def total_scored_pages(crawl_id: int) -> int:
    """N of Def. 4: the pages of all the crawl's scored sites."""
    return SiteCredibility.objects.filter(crawl_id=crawl_id).aggregate(n=Sum("pages"))["n"] or 0


class UrlPattern(models.Model):
    """A pairing pattern k = ⟨t, t′⟩ of one site (Def. 1–3), or its global row (site empty, Def. 4);
    read global rows with ``UrlPattern.objects.global_rows(crawl_id)``, which adds C(k)."""

    crawl = models.ForeignKey("crawlweb.Crawl", on_delete=models.CASCADE, related_name="url_patterns")
    site = models.ForeignKey("crawlweb.Site", null=True, blank=True, on_delete=models.CASCADE,
                             related_name="url_patterns", help_text="Empty for the global row of a pattern.")
    source_unit = models.CharField(max_length=200, blank=True, help_text="t: source-language unit ('' = ε).")
    target_unit = models.CharField(max_length=200, blank=True, help_text="t′: target-language unit ('' = ε).")
    scope = models.CharField(max_length=10, blank=True, help_text="path, file or union: where the pattern was seen most.")
    frequency = models.PositiveIntegerField(default=0, help_text="Def. 2 p(k, w); global row: Σ p(k, wᵢ).")
    pages_matched = models.PositiveIntegerField(default=0, help_text="N(k, w) = 2·p(k, w); global row: Σ N(k, wᵢ).")
    site_pages = models.PositiveIntegerField(default=0, help_text="|w| (site rows only; N of the global rows is "
                                                                  "total_scored_pages, read with them).")
    sites = models.PositiveIntegerField(default=1, help_text="Sites where the pattern occurs.")
    local_credibility = models.FloatField(null=True, blank=True, help_text="Def. 3 C(k, w) = N(k, w)/|w|.")
    global_credibility_unnormalized = models.FloatField(
        null=True, blank=True, help_text="Σ N(k,wᵢ)·C(k,wᵢ): the scale of the method's θ = 500.")
    examples = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = UrlPatternQuerySet.as_manager()

    class Meta:
        ordering = ["-global_credibility_unnormalized", "-local_credibility", "id"]
        constraints = [
            models.UniqueConstraint(fields=["crawl", "site", "source_unit", "target_unit"],
                                    condition=Q(site__isnull=False), name="urlpattern_unique_per_site"),
            models.UniqueConstraint(fields=["crawl", "source_unit", "target_unit"],
                                    condition=Q(site__isnull=True), name="urlpattern_unique_global"),
        ]
        indexes = [models.Index(fields=["crawl", "site"], name="urlpattern_by_site")]

    @property
    def label(self) -> str:
        return pattern_label((self.source_unit, self.target_unit))

    def __str__(self):
        return self.label


class SiteCredibility(models.Model):
    """Def. 5 C(w) = max_k C(k, w) of a site, and the discovery measures once computed (Def. 6–8)."""

    crawl = models.ForeignKey("crawlweb.Crawl", on_delete=models.CASCADE, related_name="site_credibilities")
    site = models.ForeignKey("crawlweb.Site", on_delete=models.CASCADE, related_name="credibilities")
    pages = models.PositiveIntegerField(default=0, help_text="|w|: pages of the site (all its hosts).")
    source_pages = models.PositiveIntegerField(default=0)
    target_pages = models.PositiveIntegerField(default=0)
    credibility = models.FloatField(default=0.0, db_index=True)
    best_source_unit = models.CharField(max_length=200, blank=True)
    best_target_unit = models.CharField(max_length=200, blank=True)
    has_best_pattern = models.BooleanField(default=False)
    domain = models.CharField(max_length=255, blank=True, help_text="Public suffix for domain rescue (gov.rs, rs).")
    linkout = models.FloatField(null=True, blank=True, help_text="Def. 6 Linkout(w), links to other seed sites.")
    pagerank = models.FloatField(null=True, blank=True, help_text="Def. 7 PR(w) in the seed sites' graph.")
    wpr = models.FloatField(null=True, blank=True, help_text="Def. 8 WPR(w) = C(w)·PR(w).")
    scored_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-credibility", "site_id"]
        constraints = [models.UniqueConstraint(fields=["crawl", "site"], name="sitecredibility_unique")]
        indexes = [models.Index(fields=["crawl", "domain"], name="sitecredibility_by_domain")]  # rescue_domain

    @property
    def best_pattern(self) -> str:
        return pattern_label((self.best_source_unit, self.best_target_unit)) if self.has_best_pattern else ""

    def __str__(self):
        return f"{self.site} C(w)={self.credibility:.3f}"


class CandidatePair(models.Model):
    """Two pages proposed as translations, by which method(s), and the filter's verdict (Def. 9 + content)."""

    crawl = models.ForeignKey("crawlweb.Crawl", on_delete=models.CASCADE, related_name="candidate_pairs")
    site = models.ForeignKey("crawlweb.Site", on_delete=models.CASCADE, related_name="candidate_pairs")
    source_url = models.CharField(max_length=2000)
    target_url = models.CharField(max_length=2000)
    source_page = models.ForeignKey("crawlweb.Page", null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    target_page = models.ForeignKey("crawlweb.Page", null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    method = models.CharField(max_length=20, db_index=True,
                              help_text="hreflang, switch, local, rescue_global, rescue_domain, deep or content (best one).")
    methods = models.JSONField(default=list, blank=True, help_text="Every method that proposed the pair.")
    pattern_source_unit = models.CharField(max_length=200, blank=True)
    pattern_target_unit = models.CharField(max_length=200, blank=True)
    has_pattern = models.BooleanField(default=False)
    score = models.FloatField(default=0.0, help_text="Credibility of the proposing pattern or declaration.")
    evidence = models.CharField(max_length=500, blank=True)
    similarity = models.FloatField(null=True, blank=True, help_text="Def. 9 Sim = α·Sim_Same + (1−α)·Sim_Pattern.")
    sim_same = models.FloatField(null=True, blank=True)
    sim_pattern = models.FloatField(null=True, blank=True)
    scores = models.JSONField(default=dict, blank=True)
    kept = models.BooleanField(default=False, db_index=True)
    reason = models.CharField(max_length=300, blank=True, help_text="Why the filter kept or removed it.")
    source_language = models.CharField(max_length=16, blank=True)
    target_language = models.CharField(max_length=16, blank=True)
    languages_confirmed = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["site_id", "method", "source_url"]
        constraints = [models.UniqueConstraint(fields=["crawl", "source_url", "target_url"],
                                               name="candidatepair_unique")]
        indexes = [models.Index(fields=["crawl", "site", "method"], name="candidatepair_by_method")]

    @property
    def pattern_label(self) -> str:
        return pattern_label((self.pattern_source_unit, self.pattern_target_unit)) if self.has_pattern else ""

    def __str__(self):
        return f"{self.source_url} ↔ {self.target_url} ({self.method})"


class ScriptVariant(models.Model):
    """A Serbian text in Latin and in Cyrillic script: one page, never an sr–en pair."""

    crawl = models.ForeignKey("crawlweb.Crawl", on_delete=models.CASCADE, related_name="script_variants")
    site = models.ForeignKey("crawlweb.Site", on_delete=models.CASCADE, related_name="script_variants")
    latin_url = models.CharField(max_length=2000)
    cyrillic_url = models.CharField(max_length=2000)
    latin_page = models.ForeignKey("crawlweb.Page", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    cyrillic_page = models.ForeignKey("crawlweb.Page", null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="+")
    evidence = models.CharField(max_length=300, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["site_id", "latin_url"]
        constraints = [models.UniqueConstraint(fields=["crawl", "latin_url", "cyrillic_url"],
                                               name="scriptvariant_unique")]

    def __str__(self):
        return f"{self.latin_url} = {self.cyrillic_url}"


class DeepCheck(models.Model):
    """Method "deep": one guessed counterpart URL and what the polite fetcher said about it."""

    crawl = models.ForeignKey("crawlweb.Crawl", on_delete=models.CASCADE, related_name="deep_checks")
    site = models.ForeignKey("crawlweb.Site", on_delete=models.CASCADE, related_name="deep_checks")
    page_url = models.CharField(max_length=2000, help_text="The page that has no counterpart yet.")
    guessed_url = models.CharField(max_length=2000)
    source_unit = models.CharField(max_length=200, blank=True)
    target_unit = models.CharField(max_length=200, blank=True)
    expected_language = models.CharField(max_length=16)
    pattern_credibility = models.FloatField(default=0.0)
    queued_at = models.DateTimeField(null=True, blank=True,
                                     help_text="When a check_deep_pages job was queued for it (one job per guess).")
    retry_at = models.DateTimeField(
        null=True, blank=True, help_text="Set aside by its job while its host was held (a politeness clock, a crawl "
                                         "step's lease): the crawl's steps queue it again from then.")
    checked_at = models.DateTimeField(null=True, blank=True)
    status_code = models.IntegerField(null=True, blank=True)
    exists = models.BooleanField(null=True, help_text="Empty until checked.")
    outcome = models.CharField(max_length=200, blank=True,
                               help_text="stored page, HEAD status, robots refusal, error kind...")

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["crawl", "page_url", "guessed_url"],
                                               name="deepcheck_unique")]
        # each crawl step's sweep for guesses whose host is free again reads only the ones set aside
        indexes = [models.Index(fields=["crawl", "retry_at"], condition=Q(retry_at__isnull=False),
                                name="deepcheck_retry")]

    def __str__(self):
        return f"{self.page_url} → {self.guessed_url}"


class DiscoveredSite(models.Model):
    """An external site linked from the crawl's sites, ranked by ΣLinkout, ΣPR and ΣWPR (Def. 6–8)."""

    crawl = models.ForeignKey("crawlweb.Crawl", on_delete=models.CASCADE, related_name="discovered_sites")
    host = models.CharField(max_length=255)
    sum_linkout = models.FloatField(default=0.0)
    sum_pr = models.FloatField(default=0.0)
    sum_wpr = models.FloatField(default=0.0)
    measure = models.CharField(max_length=10, default="wpr", help_text="Measure the rank is by.")
    rank = models.PositiveIntegerField()
    linked_from = models.JSONField(default=list, blank=True)
    added_as_seed = models.BooleanField(default=False)
    iteration = models.PositiveSmallIntegerField(default=1)
    discovered_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["rank"]
        constraints = [models.UniqueConstraint(fields=["crawl", "iteration", "host"], name="discoveredsite_unique")]

    def __str__(self):
        return f"#{self.rank} {self.host} (iteration {self.iteration})"


class DiscoveryRun(models.Model):
    """Method 5 over several iterations: rank, seed the top K, let the crawl fetch them, re-score, rank again.

    ``waiting`` is set while a crawl round runs whose end (the crawl finishing) starts the next
    iteration; the score_crawl job that follows the finish takes it back with a conditional update."""

    crawl = models.OneToOneField("crawlweb.Crawl", primary_key=True, on_delete=models.CASCADE, related_name="+")
    iterations = models.PositiveSmallIntegerField(default=1, help_text="Rankings wanted (PAIRS_DISCOVERY_ITERATIONS).")
    iteration = models.PositiveSmallIntegerField(default=0, help_text="Rankings done so far.")
    waiting = models.BooleanField(default=False, help_text="A crawl round runs; its end starts the next iteration.")
    finished = models.BooleanField(default=False, help_text="Every iteration ranked, or a ranking found nothing new.")
    seeds_added = models.PositiveIntegerField(default=0, help_text="Sites added as seeds over all iterations.")
    started_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"discovery of crawl {self.crawl_id}: {self.iteration}/{self.iterations}"


class CrawlScoring(models.Model):
    """Debounce and record of score_crawl, the crawl-wide pass (every site under the same global credibility).

    A follow-up claims it (pending: False → True, a conditional update) when the crawl has grown by
    PAIRS_RESCORE_GROWTH since the last pass, and when the crawl finishes; the job releases it when
    it starts, noting the pages it will see. A pass that starts before the crawl has finished leaves
    out the one-language sites that got no page since they were scored (scoring.pass_site_ids); the
    crawl's pairs are final only after a *whole* pass, one started once the crawl had finished."""

    crawl = models.OneToOneField("crawlweb.Crawl", primary_key=True, on_delete=models.CASCADE, related_name="+")
    pending = models.BooleanField(default=False)
    claimed_at = models.DateTimeField(null=True, blank=True)
    pages_at_last_pass = models.PositiveIntegerField(default=0, help_text="Pages fetched when the last pass started.")
    passes = models.PositiveIntegerField(default=0, help_text="Crawl-wide passes finished.")
    last_pass_at = models.DateTimeField(null=True, blank=True)
    last_pass_whole = models.BooleanField(
        default=False, help_text="The last pass has ended, and it scored every site of the finished crawl.")

    def __str__(self):
        return f"crawl {self.crawl_id}: {self.passes} passes"


class ScoreClaim(models.Model):
    """When a site (its pairing group's canonical Site) is scored again: at most one pending score_site
    (claimed by a conditional update), and only once the site has grown PAIRS_SITE_RESCORE_GROWTH
    times since its last scoring or has gone quiet (evaluation/services/claims.py)."""

    crawl = models.ForeignKey("crawlweb.Crawl", on_delete=models.CASCADE, related_name="+")
    site = models.ForeignKey("crawlweb.Site", on_delete=models.CASCADE, related_name="+")
    pending = models.BooleanField(default=True)
    claimed_at = models.DateTimeField()
    pages_stored = models.PositiveIntegerField(default=0, help_text="Pages of the site the crawl's steps stored.")
    pages_at_last_score = models.PositiveIntegerField(
        default=0, help_text="pages_stored when its last score_site (or crawl-wide pass) started.")
    behind = models.BooleanField(default=False, help_text="Pages stored that no scoring has seen yet.")
    last_stored_at = models.DateTimeField(null=True, blank=True)
    first_stored_at = models.DateTimeField(
        null=True, blank=True, help_text="When its first page was stored: a site never scored is scored "
                                         "PAIRS_SITE_FIRST_DELAY_SECONDS after it.")
    languages_seen = models.CharField(
        max_length=32, blank=True, default="",
        help_text="Languages of the crawl's pair its stored pages have shown, comma-separated: a page in a new "
                  "one claims a scoring at once.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["crawl", "site"], name="scoreclaim_unique")]
        # The quiet sweep of each step reads only the sites that are behind, not every site of the crawl.
        indexes = [models.Index(fields=["crawl", "last_stored_at"], condition=Q(behind=True),
                                name="scoreclaim_behind")]
