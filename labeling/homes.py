"""Where each role lands: after logging in, from the brand link, from the 403 page.

Staff run crawls, so their home is the dashboard; evaluators and report viewers work in labeling.
Anyone else (signed in but in no role) gets the labeling page, which says what they may not do."""
from __future__ import annotations

from django.urls import reverse


def home_url(user) -> str:
    if user.is_authenticated and user.is_staff:
        return reverse("dashboard:index")
    return reverse("labeling:index")
