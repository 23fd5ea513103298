"""The judging card: one item per screen; one key judges and the next item is swapped in (htmx).

Every answer names its assignment, so a reload, a resent form or a double key press judges
nothing twice (labeling.judging.record). Without JavaScript the buttons are plain forms and the
server redirects back to the card (post/redirect/get)."""
import math
import time

from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from crawlweb.ids import parse_id
from labeling.judging import JudgingError, next_assignment, progress, record, undo_last
from labeling.guidelines import RULES, guidelines
from labeling.keys import KEYS, QUESTIONS, key_for
from labeling.models import Assignment, Judgment
from labeling.permissions import evaluation_for_evaluator, evaluator_required, own_assignment
from labeling.presentation import CARD_DEFERRED, CARD_RELATED, card_context


def _echo(assignment: Assignment, judgment: Judgment) -> dict:
    """"Your last answer: …" on the next card, so a mis-key is seen while undo can still take it back."""
    return {"key": key_for(assignment.evaluation.what, judgment.verdict, judgment.category), "order": assignment.order}


def _answered_echo(request, evaluation) -> dict | None:
    """The echo after a judgment without JavaScript: the redirect names the assignment just judged
    (?answered=ID); only the evaluator's own, still judged, is echoed."""
    pk = parse_id(request.GET.get("answered", ""))
    if pk is None:
        return None
    try:
        assignment = own_assignment(request.user, pk)
        return _echo(assignment, assignment.judgment) if assignment.evaluation_id == evaluation.pk else None
    except (Http404, Judgment.DoesNotExist):
        return None


def _workspace(request, evaluation, status=200, notice="", last_answer=None):
    assignment = (next_assignment(evaluation, request.user, CARD_RELATED[evaluation.what],
                                  CARD_DEFERRED[evaluation.what]) if evaluation.is_open else None)
    context = {"evaluation": evaluation, "assignment": assignment, "progress": progress(evaluation, request.user),
               "keys": KEYS[evaluation.what], "question": QUESTIONS[evaluation.what], "shown": f"{time.time():.3f}",
               "notice": notice, "last_answer": last_answer, **(card_context(assignment.item) if assignment else {})}
    template = "labeling/_workspace.html" if request.headers.get("HX-Request") else "labeling/judge.html"
    response = render(request, template, context, status=status)
    response["Vary"] = "HX-Request"
    response["Cache-Control"] = "no-store"
    return response


def _seconds(raw: str | None) -> float | None:
    """Time since the card was shown (its render time came back in the form); None if unreadable."""
    try:
        shown = float(raw) if raw else None
    except ValueError:
        return None
    return time.time() - shown if shown is not None and math.isfinite(shown) else None


@require_GET
@evaluator_required
def judge(request, pk):
    evaluation = evaluation_for_evaluator(request.user, pk)
    return _workspace(request, evaluation, last_answer=_answered_echo(request, evaluation))


@require_POST
@evaluator_required
def answer(request, pk):
    assignment = own_assignment(request.user, pk)
    keys = {key.key: key for key in KEYS[assignment.evaluation.what]}
    key = keys.get(request.POST.get("key", ""))
    if key is None:
        return HttpResponseBadRequest(f"unknown key {request.POST.get('key', '')!r}; expected one of {', '.join(keys)}")
    try:
        judgment, _ = record(assignment, key.verdict, key.category, _seconds(request.POST.get("shown")))
    except JudgingError as error:
        return HttpResponseBadRequest(str(error))
    if not request.headers.get("HX-Request"):
        return redirect(reverse("labeling:judge", args=[assignment.evaluation_id]) + f"?answered={assignment.pk}")
    return _workspace(request, assignment.evaluation, last_answer=_echo(assignment, judgment))


@require_POST
@evaluator_required
def undo(request, pk):
    evaluation = evaluation_for_evaluator(request.user, pk)
    try:
        taken_back = undo_last(evaluation, request.user)
    except JudgingError as error:
        return HttpResponseBadRequest(str(error))
    if not request.headers.get("HX-Request"):
        return redirect("labeling:judge", pk=evaluation.pk)
    return _workspace(request, evaluation, notice="Took back your last answer." if taken_back else "Nothing to undo.")


@require_GET
@evaluator_required
def help_panel(request):
    """The card's help panel for htmx; opened as a page of its own (its link typed, or no JavaScript), a
    whole page with a title and a way back, whose Close leads to the labeling home."""
    what = request.GET.get("what", "")
    what = what if what in KEYS else "pairs"
    closed = request.GET.get("close") == "1"
    as_page = not request.headers.get("HX-Request")
    if as_page and closed:
        return redirect("labeling:index")
    response = render(request, "labeling/help.html" if as_page else "labeling/_help.html",
                      {"closed": closed, "guidelines": guidelines(what), "rules": RULES[what], "as_page": as_page})
    response["Vary"] = "HX-Request"
    return response
