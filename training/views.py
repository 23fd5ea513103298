"""Admin pages of retraining: the versions of each kind with their comparison numbers, a button to
train now, and a button to roll back the promoted version of a kind. Admins only (labeling groups)."""
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from labeling.permissions import admin_required
from training.jobs import request_training
from training.models import TrainedModel, TrainingRun
from training.services.promotion import roll_back
from training.services.sources import evaluation_sources


@admin_required
def models_index(request):
    kinds = [(kind, label, TrainedModel.objects.filter(kind=kind).order_by("-version")[:20])
             for kind, label in TrainedModel.Kind.choices]
    runs = TrainingRun.objects.select_related("evaluation")[:10]
    # While a run is pending or running the page refreshes itself, so its outcome appears without a reload.
    busy = TrainingRun.objects.filter(state__in=[TrainingRun.State.PENDING, TrainingRun.State.RUNNING]).exists()
    return render(request, "training/index.html", {"kinds": kinds, "runs": runs, "busy": busy,
                                                   "sources": evaluation_sources()})


@admin_required
@require_POST
def train_now(request):
    run = request_training(TrainingRun.Trigger.BUTTON, user=request.user)
    messages.info(request, f"Training run {run.pk} requested.")
    return redirect("training:index")


@admin_required
@require_POST
def rollback(request, kind: str):
    if kind not in TrainedModel.Kind.values:
        raise Http404("no such kind of model")
    previous = roll_back(kind, by=request.user.username)
    label = TrainedModel.Kind(kind).label
    messages.info(request, f"{label}: rolled back to v{previous.version}." if previous
                  else f"{label}: rolled back; no earlier version, the default applies.")
    return redirect("training:index")
