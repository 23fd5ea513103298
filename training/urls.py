from django.urls import path

from training import views

app_name = "training"

urlpatterns = [
    path("", views.models_index, name="index"),
    path("train/", views.train_now, name="train"),
    path("<str:kind>/rollback/", views.rollback, name="rollback"),
]
