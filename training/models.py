"""Versioned models learned from judgments, and the runs of the train job that made them.

A TrainedModel's ``params`` is data only (crawlweb.model_data checks its exact schema when it
is loaded); ``metrics`` keeps the cross-validated comparison with the model that was current when it
was trained, so the decision to promote or reject can be read back."""
from django.conf import settings
from django.db import models
from django.db.models import Q


class TrainingRun(models.Model):
    """One request to train (an evaluation closed, the button, N judgments); the job claims it once."""

    class Trigger(models.TextChoices):
        EVALUATION_CLOSED = "evaluation_closed"
        BUTTON = "button"
        JUDGMENTS = "judgments"

    class State(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    trigger = models.CharField(max_length=20, choices=Trigger.choices)
    evaluation = models.ForeignKey("labeling.Evaluation", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="training_runs")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING, db_index=True)
    summary = models.JSONField(default=dict, blank=True, help_text="Per kind: what was trained, or why not.")
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["evaluation", "trigger"], condition=Q(evaluation__isnull=False),
                                               name="one_run_per_closed_evaluation")]

    def __str__(self):
        return f"training run {self.pk} ({self.trigger}, {self.state})"


class TrainedModel(models.Model):
    class Kind(models.TextChoices):
        PAIR_CLASSIFIER = "pair_classifier", "Pair classifier"
        LINK_PREDICTOR = "link_predictor", "Link Predictor"
        DETECTOR_THRESHOLD = "detector_threshold", "Detector threshold"

    class State(models.TextChoices):
        CANDIDATE = "candidate"
        PROMOTED = "promoted"
        REJECTED = "rejected"
        RETIRED = "retired"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    version = models.PositiveIntegerField()
    params = models.JSONField(help_text="The model as data (schema in training.learn), never a pickle.")
    metrics = models.JSONField(default=dict, blank=True, help_text="Cross-validated F1 of this model vs the current.")
    trained_on = models.JSONField(default=dict, blank=True, help_text="Judged items used: {total, positive, negative}.")
    state = models.CharField(max_length=10, choices=State.choices, default=State.CANDIDATE, db_index=True)
    reason = models.CharField(max_length=500, blank=True)
    run = models.ForeignKey(TrainingRun, null=True, blank=True, on_delete=models.SET_NULL, related_name="models")
    created_at = models.DateTimeField(auto_now_add=True)
    promoted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["kind", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "version"], name="trainedmodel_version_unique"),
            models.UniqueConstraint(fields=["kind"], condition=Q(state="promoted"), name="one_promoted_model_per_kind"),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} v{self.version} ({self.state})"


class JudgmentCounter(models.Model):
    """Judgments counted when training last started on "every N judgments" (one row, pk 1)."""

    judgments_at_last_train = models.PositiveIntegerField(default=0)
