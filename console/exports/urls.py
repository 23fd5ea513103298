"""Included under crawls/<int:pk>/exports/ (crawlweb/urls.py), before the dashboard's routes."""
from django.urls import path

from crawlweb.exports import views

app_name = "exports"
urlpatterns = [
    path("warc/<str:file_name>", views.warc_file, name="warc_file"),
    path("<str:file_name>", views.download, name="download"),
]
