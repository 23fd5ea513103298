"""Who may open a console page (the dashboard, crawls, sites, pairs, jobs, exports): staff.

Django's staff_member_required sends everyone else to the admin's log-in, which then refuses a
signed-in evaluator ("not authorized") without a way back. Here a visitor goes to the one log-in page
of every role, and a signed-in evaluator or viewer gets the 403 page, which says why and links home.
"""
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied


def staff_console(view):
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), "labeling:login")
        if not (request.user.is_active and request.user.is_staff):
            raise PermissionDenied("the crawl console is for operators (staff accounts)")
        return view(request, *args, **kwargs)
    return wrapped
