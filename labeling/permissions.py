"""Who may do what in labeling sessions; every labeling view goes through these.

Groups (created by migration 0002): ``admins`` (create evaluations, adjudicate), ``evaluators``
(judge the items assigned to them), ``viewers`` (read reports). Staff superusers count as admins.
Object-level rule: an evaluator reaches only their own assignments and judgments; anything else
answers 404, so changing an id in a URL reveals not even that the object exists.
"""
from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from crawlweb.prepared_query import PreparedQuery
from labeling.models import Assignment, Evaluation

ADMINS, EVALUATORS, VIEWERS = "admins", "evaluators", "viewers"
LABELING_GROUPS = (ADMINS, EVALUATORS, VIEWERS)
LOGIN_URL = "labeling:login"  # evaluators are not staff, so the admin's login page refuses them


def group_flag(name: str) -> str:
    """The attribute labeling.auth_backend sets on the user: is it in group ``name``?"""
    return f"in_group_{name}"


def groups_of(user) -> set[str]:
    """The labeling groups the user is in: read with the user row when the session's backend is
    labeling.auth_backend (no query), else once per request."""
    if not user.is_authenticated:
        return set()
    if not hasattr(user, "_labeling_groups"):
        if all(hasattr(user, group_flag(name)) for name in LABELING_GROUPS):
            user._labeling_groups = {name for name in LABELING_GROUPS if getattr(user, group_flag(name))}
        else:
            user._labeling_groups = set(user.groups.filter(name__in=LABELING_GROUPS).values_list("name", flat=True))
    return user._labeling_groups


def is_admin(user) -> bool:
    return user.is_authenticated and ((user.is_superuser and user.is_staff) or ADMINS in groups_of(user))


def is_evaluator(user) -> bool:
    return is_admin(user) or EVALUATORS in groups_of(user)


def is_viewer(user) -> bool:
    return is_evaluator(user) or VIEWERS in groups_of(user)


def _requires(check, what: str):
    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not check(request.user):
                raise PermissionDenied(f"this page is for {what}")
            return view(request, *args, **kwargs)
        return login_required(wrapped, login_url=LOGIN_URL)
    return decorator


admin_required = _requires(is_admin, "admins")
evaluator_required = _requires(is_evaluator, "evaluators")
viewer_required = _requires(is_viewer, "viewers, evaluators and admins")


def evaluation_for_admin(user, pk: int) -> Evaluation:
    if not is_admin(user):
        raise PermissionDenied("this page is for admins")
    return get_object_or_404(Evaluation, pk=pk)


def evaluation_for_evaluator(user, pk: int) -> Evaluation:
    """An evaluation the user judges in (admins included only when named as evaluators)."""
    return get_object_or_404(Evaluation, pk=pk, evaluators=user)


_OWN_ASSIGNMENT = PreparedQuery(lambda p: Assignment.objects.filter(pk=p["pk"], evaluator_id=p["evaluator"])
                                .select_related("item", "evaluation", "judgment"), "pk", "evaluator")


def own_assignment(user, pk: int) -> Assignment:
    """The user's own assignment, or 404 (never another evaluator's); its judgment, if any, comes
    in the same query (labeling.judging.record reads it)."""
    found = _OWN_ASSIGNMENT.first(pk=int(pk), evaluator=user.pk) if user.is_authenticated else None
    if found is None:
        raise Http404("no such assignment")
    return found
