"""The site's root (/) is the dashboard for staff and the way in for everyone else."""
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect


def front_door(view):
    """Staff get ``view``; a signed-in evaluator or viewer goes to labeling, their home; a visitor
    to the one log-in page of every role (staff_member_required sent both to the admin's log-in,
    which refuses evaluators: "not authorized")."""
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), "labeling:login")
        if not request.user.is_staff:
            return redirect("labeling:index")
        return view(request, *args, **kwargs)
    return wrapped
