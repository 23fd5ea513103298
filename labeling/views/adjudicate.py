"""Disagreements for an admin to settle: items whose judges gave different answers, each answer on
its own button (keys 1, 2, …); the chosen one is stored as the item's Adjudication, which
labeling.verdicts.final_verdict then uses downstream. Admins only: evaluators never see others' verdicts."""
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from crawlweb.ids import parse_id
from labeling.adjudication_cards import cards_of
from labeling.models import Adjudication, EvaluationItem
from labeling.permissions import admin_required, evaluation_for_admin
from labeling.report_data import ItemRecord, load_items


def answers_of(item: ItemRecord) -> list[tuple[str, str, list[str]]]:
    """The distinct answers given to an item, each with who gave it, in a stable order."""
    given: dict[tuple[str, str], list[str]] = {}
    for j in item.answers:
        given.setdefault((j.verdict, j.category), []).append(j.evaluator)
    return [(verdict, category, who) for (verdict, category), who in sorted(given.items())]


@admin_required
def disagreements(request, pk: int):
    evaluation = evaluation_for_admin(request.user, pk)
    disputed = [(item, answers_of(item)) for item in load_items(evaluation) if item.disagreed]
    disputed.sort(key=lambda pair: (pair[0].adjudication is not None, pair[0].position))
    pending = [item for item, _ in disputed if item.adjudication is None]
    cards = cards_of([item.id for item in pending])
    disputed = [(item, answers, cards.get(item.id, "")) for item, answers in disputed]
    return render(request, "labeling/disagreements.html", {
        "evaluation": evaluation, "disputed": disputed, "pending": len(pending),
        "first_pending_id": pending[0].id if pending else None})


@admin_required
@require_POST
def adjudicate(request, item_pk: int):
    item = get_object_or_404(EvaluationItem.objects.select_related("evaluation"), pk=item_pk)
    evaluation = evaluation_for_admin(request.user, item.evaluation_id)
    (record,) = load_items(evaluation, [item.pk])
    answers = answers_of(record)
    choice = parse_id(request.POST.get("answer", ""))  # "²".isdigit() is true, but it is no number
    if choice is None or not 1 <= choice <= len(answers):
        return HttpResponseBadRequest(f"answer must be one of 1–{len(answers)}: the judges' answers on this item")
    verdict, category, _ = answers[choice - 1]
    Adjudication.objects.update_or_create(item=item, defaults={
        "verdict": verdict, "category": category, "by": request.user})
    return redirect(reverse("labeling_report:disagreements", args=[evaluation.pk]) + f"#item-{item.pk}")
