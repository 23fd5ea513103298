"""The report of an evaluation and the items behind each of its numbers: admins and reviewers only
(labeling.permissions.report_refusal); evaluators never see others' counts or answers."""
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from labeling.models import ErrorCategory, Evaluation
from labeling.permissions import is_admin, reports_required
from labeling.report_chart import ChartRow, precision_chart
from labeling.report_data import load_items
from labeling.reporting import ItemFilter, Report, breakdown_lines, build_report


@reports_required
def reports(request):
    evaluations = Evaluation.objects.prefetch_related("crawls").order_by("state", "-created_at")
    return render(request, "labeling/reports.html", {"evaluations": evaluations, "is_admin": is_admin(request.user)})


@reports_required
def report(request, pk: int):
    evaluation = get_object_or_404(Evaluation, pk=pk)
    result = build_report(load_items(evaluation))
    items_url = reverse("labeling_report:items", args=[pk])
    return render(request, "labeling/report.html", {
        "evaluation": evaluation, "report": result, "items_url": items_url, "is_admin": is_admin(request.user),
        "chart": precision_chart(_chart_rows(result, items_url)),
        "breakdown": breakdown_lines(result), "categories": ErrorCategory.choices,
    })


def _chart_rows(result: Report, items_url: str) -> list[ChartRow]:
    rows = [ChartRow(r.name, r.figure.p, r.figure.low, r.figure.high, r.figure.n, f"{items_url}?{r.items.query()}")
            for r in result.strata]
    e = result.estimate
    if e is not None and e.p is not None:
        rows.append(ChartRow("Stratified estimate", e.p, e.low, e.high, e.judged,
                             f"{items_url}?{result.estimate_items_filter.query()}", overall=True))
    return rows


@reports_required
def items(request, pk: int):
    """The items behind a number. Blind annotation: someone who still has to judge an item (an admin
    who judges too) never sees its verdict or judgments here; only admins see individual judgments."""
    evaluation = get_object_or_404(Evaluation, pk=pk)
    chosen = ItemFilter.from_query(request.GET)
    admin = is_admin(request.user)
    rows = [(item, _still_to_judge(item, request.user, evaluation))
            for item in load_items(evaluation) if chosen.matches(item)]
    return render(request, "labeling/report_items.html", {
        "evaluation": evaluation, "rows": rows, "chosen": chosen, "is_admin": admin})


def _still_to_judge(item, user, evaluation) -> bool:
    if not hasattr(user, "_items_to_judge"):
        user._items_to_judge = set(evaluation.assignments.filter(evaluator=user, judgment__isnull=True)
                                   .values_list("item_id", flat=True))
    return item.id in user._items_to_judge
