from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from crawlweb.not_found import view_on_site

urlpatterns = [
    # Before the admin's own: the same shortcut, answering 404 for a model without a table.
    path("admin/r/<int:content_type_id>/<path:object_id>/", view_on_site, name="view_on_site"),
    # Pages name their icon (base.html); browsers still ask for /favicon.ico on pages that do not.
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True), name="favicon"),
    path("admin/", admin.site.urls),
    path("django-rq/", include("django_rq.urls")),
    path("jobs/", include("console.dashboard.job_urls")),
    path("frontier/", include("frontier.urls")),
    path("pairs/", include("evaluation.urls")),
    path("labeling/", include("labeling.urls")),
    path("labeling/", include("labeling.report_urls")),
    path("training/", include("training.urls")),
    path("crawls/<int:pk>/exports/", include("console.exports.urls")),
    path("", include("console.dashboard.urls")),
]
