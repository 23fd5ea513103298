"""Who judges which item (Assignment), what they said (Judgment), and the admin's final word (Adjudication)."""
from django.conf import settings
from django.db import models

from labeling.models.evaluations import Evaluation, EvaluationItem


class Verdict(models.TextChoices):
    """One vocabulary for pairs, sites and links; the question decides what "yes" means
    (parallel / bilingual in the crawl's pair / leads to this page's translation)."""

    YES = "yes", "Yes"
    NO = "no", "No"
    PARTIAL = "partial", "Partial"  # pairs: the same page, its body not fully translated
    SKIP = "skip", "Skipped"  # the evaluator could not tell; counts for no side


class ErrorCategory(models.TextChoices):
    """Pupsniffer's error categories of wrong pairs (its Tables 2 and 4), keys 1–5."""

    LANGUAGE_ID = "language_id", "Language identification error"
    INVALID_URL = "invalid_url", "Invalid URL"
    SAME_LANGUAGE = "same_language", "Both pages in one language"
    EXTRACTION = "extraction", "Content extraction error"
    FALSE_BILINGUAL = "false_bilingual", "False bilingual text"


class Assignment(models.Model):
    """An item given to one evaluator, at a place in their queue. ``evaluation`` repeats the item's
    so "my next unjudged item" is one index lookup."""

    evaluation = models.ForeignKey(Evaluation, on_delete=models.CASCADE, related_name="assignments")
    item = models.ForeignKey(EvaluationItem, on_delete=models.CASCADE, related_name="assignments")
    evaluator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                  related_name="labeling_assignments")
    order = models.PositiveIntegerField(help_text="Place in this evaluator's queue.")

    class Meta:
        ordering = ["evaluation_id", "evaluator_id", "order"]
        constraints = [models.UniqueConstraint(fields=["item", "evaluator"], name="assignment_unique")]
        indexes = [models.Index(fields=["evaluation", "evaluator", "order"], name="assignment_queue")]

    def __str__(self):
        return f"{self.item} → {self.evaluator}"


class Judgment(models.Model):
    """One evaluator's verdict on one assignment.

    Undo deletes the row (no "undone" flag): an assignment is judged exactly when its Judgment
    exists, so every count downstream (progress, agreement, precision) needs no extra filter, and
    the one-to-one key makes a second judgment of the same assignment impossible."""

    assignment = models.OneToOneField(Assignment, on_delete=models.CASCADE, related_name="judgment")
    verdict = models.CharField(max_length=10, choices=Verdict.choices)
    category = models.CharField(max_length=20, choices=ErrorCategory.choices, blank=True,
                                help_text="Why a pair is wrong (keys 1–5); blank otherwise.")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    seconds = models.FloatField(null=True, blank=True, help_text="Time from showing the item to the verdict.")

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self):
        return f"{self.assignment}: {self.verdict}{' / ' + self.category if self.category else ''}"


class Adjudication(models.Model):
    """An admin's verdict on an item the judges disagreed on; it wins over their judgments."""

    item = models.OneToOneField(EvaluationItem, on_delete=models.CASCADE, related_name="adjudication")
    verdict = models.CharField(max_length=10, choices=Verdict.choices)
    category = models.CharField(max_length=20, choices=ErrorCategory.choices, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"{self.item}: {self.verdict} (adjudicated)"
