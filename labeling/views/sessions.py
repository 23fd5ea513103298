"""The list of evaluations: an evaluator's own with their progress; admins see all."""
from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from labeling.judging import progress
from labeling.models import Evaluation
from labeling.permissions import admin_required, evaluation_for_admin, is_admin, viewer_required


@viewer_required
def index(request):
    admin = is_admin(request.user)
    mine = [(evaluation, progress(evaluation, request.user))
            for evaluation in Evaluation.objects.filter(evaluators=request.user).order_by("state", "-created_at")]
    every = (Evaluation.objects.prefetch_related("crawls", "evaluators").order_by("state", "-created_at")
             if admin else Evaluation.objects.none())
    return render(request, "labeling/index.html", {"mine": mine, "every": every, "is_admin": admin})


@require_POST
@admin_required
def change_state(request, pk, action):
    evaluation = evaluation_for_admin(request.user, pk)
    changed = evaluation.close() if action == "close" else evaluation.reopen()
    verb = "closed" if action == "close" else "reopened"
    if changed:
        messages.success(request, f"Evaluation “{evaluation.name}” {verb}.")
    else:
        messages.error(request, f"Evaluation “{evaluation.name}” was already {evaluation.state}.")
    return redirect("labeling:index")
