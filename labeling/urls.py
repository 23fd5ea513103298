from django.contrib.auth import views as auth_views
from django.urls import path

from labeling.views import create, judge, login, page_copy, sessions

app_name = "labeling"

urlpatterns = [
    path("", sessions.index, name="index"),
    path("login/", login.RoleLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(next_page="labeling:login"), name="logout"),
    path("new/", create.new_evaluation, name="new"),
    path("new/margins/", create.margins, name="margins"),
    path("<int:pk>/close/", sessions.change_state, {"action": "close"}, name="close"),
    path("<int:pk>/reopen/", sessions.change_state, {"action": "reopen"}, name="reopen"),
    path("<int:pk>/judge/", judge.judge, name="judge"),
    path("<int:pk>/undo/", judge.undo, name="undo"),
    path("assignments/<int:pk>/answer/", judge.answer, name="answer"),
    path("assignments/<int:pk>/copy/<str:side>/", page_copy.stored_copy, name="copy"),
    path("help/", judge.help_panel, name="help"),
]
