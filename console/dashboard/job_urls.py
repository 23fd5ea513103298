from django.urls import path

from console.dashboard import job_views

app_name = "jobs"
urlpatterns = [
    path("", job_views.jobs, name="index"),
    path("<str:queue_name>/failed/clear/", job_views.clear_failed, name="clear_failed"),
    path("<str:queue_name>/<str:job_id>/<str:action>/", job_views.failed_job_action, name="failed_job_action"),
]
