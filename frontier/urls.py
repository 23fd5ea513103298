from django.urls import path

from frontier import views

app_name = "frontier"
urlpatterns = [
    path("targets/<int:pk>/", views.target_detail, name="target"),
    path("harvest/", views.harvest, name="harvest"),
    path("crawls/<int:pk>/layers/", views.crawl_layers, name="crawl_layers"),
    path("crawls/<int:pk>/layers/<str:module>/<int:layer>/", views.layer_targets, name="layer_targets"),
]
