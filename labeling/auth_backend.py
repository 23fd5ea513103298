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
from django.db.models import Exists, OuterRef

from labeling.permissions import LABELING_GROUPS, group_flag


class LabelingGroupsBackend(ModelBackend):
    def get_user(self, user_id):
        user_model = get_user_model()
        memberships = user_model.groups.through.objects.filter(user_id=OuterRef("pk"))
        flags = {group_flag(name): Exists(memberships.filter(group__name=name)) for name in LABELING_GROUPS}
        try:
            user = user_model._default_manager.annotate(**flags).get(pk=user_id)
        except user_model.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None
