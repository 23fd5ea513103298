"""What starts the train job besides the button: an evaluation closing, and every N judgments
(``TRAIN_EVERY_JUDGMENTS``; 0 = off). The count is claimed with a conditional update on one row,
so concurrent judgments start one run per N, never two."""
from __future__ import annotations

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from labeling.models import Evaluation, Judgment
from training.jobs import request_training
from training.models import JudgmentCounter, TrainingRun


@receiver(post_save, sender=Evaluation, dispatch_uid="training_on_evaluation_closed")
def train_when_closed(sender, instance: Evaluation, **kwargs):
    if instance.state == Evaluation.State.CLOSED:
        request_training(TrainingRun.Trigger.EVALUATION_CLOSED, evaluation_id=instance.pk)


@receiver(post_save, sender=Judgment, dispatch_uid="training_every_n_judgments")
def train_every_n_judgments(sender, instance: Judgment, created: bool, **kwargs):
    every = settings.TRAIN_EVERY_JUDGMENTS
    if not created or not every:
        return
    total = Judgment.objects.count()
    JudgmentCounter.objects.get_or_create(pk=1)
    if JudgmentCounter.objects.filter(pk=1, judgments_at_last_train__lte=total - every).update(
            judgments_at_last_train=total):
        request_training(TrainingRun.Trigger.JUDGMENTS)
