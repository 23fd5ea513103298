"""Reports, the items behind their numbers, downloads, and adjudication (mounted under /labeling/)."""
from django.urls import path

from labeling.views import adjudicate, downloads, report

app_name = "labeling_report"

urlpatterns = [
    path("reports/", report.reports, name="reports"),
    path("<int:pk>/report/", report.report, name="report"),
    path("<int:pk>/report/items/", report.items, name="items"),
    path("<int:pk>/report.<str:fmt>", downloads.report_download, name="report_download"),
    path("<int:pk>/judgments.<str:fmt>", downloads.judgments_download, name="judgments_download"),
    path("<int:pk>/disagreements/", adjudicate.disagreements, name="disagreements"),
    path("items/<int:item_pk>/adjudicate/", adjudicate.adjudicate, name="adjudicate"),
]
