from django.urls import path

from evaluation import views

app_name = "evaluation"
urlpatterns = [
    path("crawls/<int:crawl_id>/", views.overview, name="overview"),
    path("crawls/<int:crawl_id>/patterns/", views.patterns, name="patterns"),
    path("crawls/<int:crawl_id>/pairs/", views.pairs, name="pairs"),
    path("crawls/<int:crawl_id>/sites/", views.sites, name="sites"),
    path("crawls/<int:crawl_id>/discovered/", views.discovered, name="discovered"),
    path("crawls/<int:crawl_id>/<str:action>/", views.run, name="run"),
]
