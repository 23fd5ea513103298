from django.urls import path

from console.dashboard import discovery_views, new_crawl, site_views, views

app_name = "dashboard"
urlpatterns = [
    path("", views.index, name="index"),
    path("crawls/new/", new_crawl.new_crawl, name="new_crawl"),
    path("crawls/<int:pk>/", views.crawl_detail, name="crawl"),
    path("crawls/<int:pk>/discovery/", discovery_views.discovery_panel, name="crawl_discovery"),
    path("crawls/<int:pk>/harvest/", discovery_views.harvest_panel, name="crawl_harvest"),
    path("crawls/<int:pk>/recent-pages/", views.recent_pages, name="crawl_recent_pages"),
    path("crawls/<int:pk>/sites/<int:site_id>/", site_views.site_detail, name="crawl_site"),
    path("crawls/<int:pk>/summary.json", discovery_views.summary_json, name="crawl_summary"),
    path("crawls/<int:pk>/<str:action>/", views.crawl_action, name="crawl_action"),
]
