"""Who may do what in labeling sessions; every labeling view goes through these.

Groups (created by migration 0002): ``admins`` (create evaluations, adjudicate), ``evaluators``
(judge the items assigned to them), ``viewers`` (the reviewer role: read reports). Staff superusers
count as admins.

Blind double annotation (as Label Studio and Prodigy run it): an evaluator sees only their own
items, progress and answers. Object-level rule: an evaluator reaches only their own assignments and
judgments; anything else answers 404, so changing an id in a URL reveals not even that the object
exists. Reports, their item lists, downloads, agreement and adjudication hold everyone's answers:
they are for admins and reviewers only (403 to evaluators), and a reviewer who is named as an
evaluator of an open evaluation reads none until it closes (reports of other evaluations may show
the same pairs).
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


def is_reviewer(user) -> bool:
    """In the reviewer role: may read reports, unless still judging (see report_refusal)."""
    return is_admin(user) or VIEWERS in groups_of(user)


def judges_in_open_evaluation(user) -> bool:
    return Evaluation.objects.filter(evaluators=user, state=Evaluation.State.OPEN).exists()


def report_refusal(user) -> str | None:
    """Why the user may not read reports (None: they may). Admins always may: they adjudicate."""
    if is_admin(user):
        return None
    if not is_reviewer(user):
        return "reports are for admins and reviewers: an evaluator sees only their own answers"
    if not hasattr(user, "_judges_in_open_evaluation"):
        user._judges_in_open_evaluation = judges_in_open_evaluation(user)
    if user._judges_in_open_evaluation:
        return "you judge in an open evaluation: reports stay closed to you until it closes (blind judging)"
    return None


def may_read_reports(user) -> bool:
    return user.is_authenticated and report_refusal(user) is None


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


def reports_required(view):
    """Login, then the report rule (report_refusal): 403 with the reason."""
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        refusal = report_refusal(request.user)
        if refusal is not None:
            raise PermissionDenied(refusal)
        return view(request, *args, **kwargs)
    return login_required(wrapped, login_url=LOGIN_URL)


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
