from django.urls import path

from crawlweb.dashboard import views

app_name = "dashboard"
urlpatterns = [
    path("", views.index, name="index"),
    path("crawls/new/", views.new_crawl, name="new_crawl"),
    path("crawls/<int:pk>/", views.crawl_detail, name="crawl"),
    path("crawls/<int:pk>/<str:action>/", views.crawl_action, name="crawl_action"),
]
