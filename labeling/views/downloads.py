"""CSV and JSON downloads of an evaluation's report (for whoever may read reports: admins and
reviewers) and of its judgments (admins; reviewers too once the evaluation is closed, since until
then they would unblind the judging)."""
import csv

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404

from crawlweb.spreadsheet_cells import neutralized_row
from labeling.models import Evaluation
from labeling.permissions import is_admin, reports_required
from labeling.report_data import load_items
from labeling.report_export import (JUDGMENT_COLUMNS, REPORT_COLUMNS, judgment_rows, report_document,
                                    report_rows)
from labeling.reporting import build_report


def _csv(request, rows: list[dict], columns: list[str], filename: str) -> HttpResponse:
    """Text a spreadsheet would run as a formula gets a leading ' unless ?raw=1 (crawlweb.spreadsheet_cells)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8",
                            headers={"Content-Disposition": f'attachment; filename="{filename}"'})
    writer = csv.DictWriter(response, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows if request.GET.get("raw") == "1" else map(neutralized_row, rows))
    return response


def _json(document, filename: str) -> JsonResponse:
    return JsonResponse(document, safe=False, json_dumps_params={"ensure_ascii": False, "indent": 1},
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@reports_required
def report_download(request, pk: int, fmt: str):
    evaluation = get_object_or_404(Evaluation, pk=pk)
    report = build_report(load_items(evaluation))
    if fmt == "csv":
        return _csv(request, report_rows(report), REPORT_COLUMNS, f"evaluation-{pk}-report.csv")
    if fmt == "json":
        return _json(report_document(evaluation, report), f"evaluation-{pk}-report.json")
    raise Http404(f"unknown format {fmt!r}: csv or json")


@reports_required
def judgments_download(request, pk: int, fmt: str):
    evaluation = get_object_or_404(Evaluation, pk=pk)
    if evaluation.is_open and not is_admin(request.user):
        raise PermissionDenied("judgments can be downloaded by admins, or by reviewers once the evaluation is closed")
    rows = judgment_rows(load_items(evaluation))
    if fmt == "csv":
        return _csv(request, rows, JUDGMENT_COLUMNS, f"evaluation-{pk}-judgments.csv")
    if fmt == "json":
        return _json(rows, f"evaluation-{pk}-judgments.json")
    raise Http404(f"unknown format {fmt!r}: csv or json")
