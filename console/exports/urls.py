"""Included under crawls/<int:pk>/exports/ (console/urls.py), before the dashboard's routes."""
from django.urls import path

from console.exports import views

app_name = "exports"
urlpatterns = [
    path("warc/<str:file_name>", views.warc_file, name="warc_file"),
    path("<str:file_name>", views.download, name="download"),
]
