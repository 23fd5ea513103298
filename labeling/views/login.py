"""The one log-in page of every role: each lands on its own home unless ``next`` says where."""
from django.contrib.auth.views import LoginView

from crawlweb.login_throttle import ThrottledLoginForm
from labeling.homes import home_url


class RoleLoginView(LoginView):
    """Django's LoginView (which honours a safe ``next``) with a home per role instead of
    LOGIN_REDIRECT_URL: /accounts/profile/ is no page here, and evaluators landed on a 404."""

    template_name = "labeling/login.html"
    authentication_form = ThrottledLoginForm

    def get_default_redirect_url(self) -> str:
        return home_url(self.request.user)
