"""Django's ModelBackend, reading the user's labeling groups in the query that loads the user.

Every labeling view checks the user's group (labeling.permissions); read separately, that check
cost a query on every request, one per judgment. Here the session's user row comes with one
``EXISTS`` flag per labeling group, so the check stays as fresh as the user row itself (a group
taken away counts from the next request), at no extra round trip. Logging in (passwords,
permissions) is ModelBackend's, unchanged.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef

from crawlweb.prepared_query import PreparedQuery
from labeling.permissions import LABELING_GROUPS, group_flag


def _user_with_flags(p):
    user_model = get_user_model()
    memberships = user_model.groups.through.objects.filter(user_id=OuterRef("pk"))
    flags = {group_flag(name): Exists(memberships.filter(group__name=name)) for name in LABELING_GROUPS}
    return user_model._default_manager.annotate(**flags).filter(pk=p["user"])


_USER = PreparedQuery(_user_with_flags, "user")  # compiled once: its three EXISTS cost more to compile than to run


class LabelingGroupsBackend(ModelBackend):
    def get_user(self, user_id):
        try:  # the session keeps the id as text
            user_id = get_user_model()._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        user = _USER.first(user=user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
