"""An evaluation (a sample drawn from one or more crawls) and the items in it."""
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone

from labeling.signals import evaluation_closed


MACHINE_SIGNALS_ON_ESTIMATE = ("An estimate evaluation never shows the machine's signals on the card (a precision "
                               "judged with the answer in view is biased); leave it off or choose the improve purpose.")


class Evaluation(models.Model):
    """What to judge, from which crawls, how it was sampled, and who judges it.

    ``seed`` is stored so the same population gives the same sample again (labeling.sampling)."""

    class What(models.TextChoices):
        PAIRS = "pairs", "Candidate pairs"
        SITES = "sites", "Site verdicts"
        LINKS = "links", "Links"

    class StratifyBy(models.TextChoices):
        METHOD = "method", "Method"
        VERDICT = "verdict", "Machine verdict"
        SITE = "site", "Site"

    class Purpose(models.TextChoices):
        ESTIMATE = "estimate", "Estimate precision (uniform random within strata)"
        IMPROVE = "improve", "Improve the classifiers (uncertainty sampling)"

    class State(models.TextChoices):
        OPEN = "open"
        CLOSED = "closed"

    name = models.CharField(max_length=200)
    what = models.CharField(max_length=10, choices=What.choices, default=What.PAIRS)
    crawls = models.ManyToManyField("crawlweb.Crawl", related_name="evaluations")
    stratify_by = models.CharField(max_length=10, choices=StratifyBy.choices, default=StratifyBy.METHOD)
    sample_size = models.PositiveIntegerField(default=385, help_text="Items per stratum (capped at its size).")
    seed = models.BigIntegerField(help_text="Random seed of the sample: the same seed gives the same sample.")
    overlap = models.FloatField(default=0.2, help_text="Share of items judged by two evaluators.")
    purpose = models.CharField(max_length=10, choices=Purpose.choices, default=Purpose.ESTIMATE)
    show_machine_signals = models.BooleanField(
        default=False, verbose_name="Show the machine's signals on the card",
        help_text="Improve evaluations only: the card shows the machine's decision, method, stratum and "
                  "scores. Estimate evaluations never do: a precision judged with the answer in view is biased.")
    evaluators = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="labeling_evaluations")
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN, db_index=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    @property
    def is_open(self) -> bool:
        return self.state == self.State.OPEN

    @property
    def card_shows_machine_signals(self) -> bool:
        """Blind by default; an estimate's card never shows what the machine decided."""
        return self.purpose == self.Purpose.IMPROVE and self.show_machine_signals

    def clean(self):
        if self.show_machine_signals and self.purpose != self.Purpose.IMPROVE:
            raise ValidationError({"show_machine_signals": MACHINE_SIGNALS_ON_ESTIMATE})

    def close(self) -> bool:
        """Stop taking answers. True if this call closed it (a conditional update, so two admins
        closing at once send evaluation_closed once)."""
        now = timezone.now()
        won = Evaluation.objects.filter(pk=self.pk, state=self.State.OPEN).update(state=self.State.CLOSED,
                                                                                 closed_at=now)
        self.refresh_from_db(fields=["state", "closed_at"])
        if won:
            pk = self.pk
            transaction.on_commit(lambda: evaluation_closed.send(sender=Evaluation, evaluation_id=pk))
        return bool(won)

    def reopen(self) -> bool:
        won = Evaluation.objects.filter(pk=self.pk, state=self.State.CLOSED).update(state=self.State.OPEN,
                                                                                   closed_at=None)
        self.refresh_from_db(fields=["state", "closed_at"])
        return bool(won)

    def __str__(self):
        return self.name


class EvaluationItem(models.Model):
    """One sampled object to judge: a candidate pair, a site verdict or a link (one of the three FKs).

    The FKs are SET_NULL because rescoring a crawl may delete a pair that is no longer proposed;
    ``label`` keeps what was judged (the two URLs, the host, the link) so the judgment still reads."""

    class Purpose(models.TextChoices):
        ESTIMATE = "estimate"  # uniform random within its stratum: the only items that feed precision
        IMPROVE = "improve"  # chosen because the classifier is unsure: training only

    evaluation = models.ForeignKey(Evaluation, on_delete=models.CASCADE, related_name="items")
    pair = models.ForeignKey("evaluation.CandidatePair", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="labeling_items")
    site_verdict = models.ForeignKey("frontier.SiteVerdict", null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="labeling_items")
    link = models.ForeignKey("crawlweb.Link", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="labeling_items")
    label = models.CharField(max_length=4200, blank=True, help_text="What was judged, kept if the object goes.")
    stratum = models.CharField(max_length=300, db_index=True)
    stratum_size = models.PositiveIntegerField(default=0, help_text="N: the stratum's size in the population.")
    purpose = models.CharField(max_length=10, choices=Purpose.choices, default=Purpose.ESTIMATE, db_index=True)
    probability = models.FloatField(null=True, blank=True,
                                    help_text="The classifier's probability when sampled (improve items).")
    position = models.PositiveIntegerField(help_text="Place in the evaluation's shuffled sample.")

    class Meta:
        ordering = ["evaluation_id", "position"]
        constraints = [models.UniqueConstraint(fields=["evaluation", "position"], name="item_position_unique")]

    @property
    def judged_object(self):
        return self.pair or self.site_verdict or self.link

    def __str__(self):
        return self.label or f"item {self.pk}"
