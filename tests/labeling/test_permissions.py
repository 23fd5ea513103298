"""Who reaches what: groups on every view, and an evaluator only ever reaches their own work."""
import re

import pytest
from django.urls import reverse

from labeling.models import Assignment, Judgment

pytestmark = pytest.mark.django_db


def test_anonymous_people_are_sent_to_the_labeling_login(client, evaluation):
    for url in (reverse("labeling:index"), reverse("labeling:new"), reverse("labeling:judge", args=[evaluation.pk])):
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith(reverse("labeling:login"))


def test_an_evaluator_cannot_reach_admin_pages(login, people, evaluation):
    client = login(people["ana"])
    assert client.get(reverse("labeling:new")).status_code == 403
    assert client.get(reverse("labeling:margins")).status_code == 403
    assert client.post(reverse("labeling:new"), {"name": "mine"}).status_code == 403


def test_viewers_and_people_without_a_group_cannot_judge(login, people, evaluation):
    assignment = Assignment.objects.filter(evaluation=evaluation).first()
    for who in ("vera", "nobody"):
        client = login(people[who])
        assert client.get(reverse("labeling:judge", args=[evaluation.pk])).status_code == 403
        assert client.post(reverse("labeling:answer", args=[assignment.pk]), {"key": "y"}).status_code == 403
    assert not Judgment.objects.exists()


def test_an_evaluator_not_in_the_evaluation_gets_404(login, people, evaluation, django_user_model):
    from tests.labeling.conftest import make_user
    outsider = make_user(django_user_model, "olga", "evaluators")
    assert login(outsider).get(reverse("labeling:judge", args=[evaluation.pk])).status_code == 404


def test_answering_another_evaluators_assignment_is_404_and_changes_nothing(login, people, evaluation):
    bobs = Assignment.objects.filter(evaluation=evaluation, evaluator=people["bob"]).first()
    client = login(people["ana"])
    response = client.post(reverse("labeling:answer", args=[bobs.pk]), {"key": "n"})
    assert response.status_code == 404
    assert not Judgment.objects.filter(assignment=bobs).exists()


def test_another_evaluators_judgment_is_never_shown_nor_undone(login, people, evaluation):
    bobs = Assignment.objects.filter(evaluation=evaluation, evaluator=people["bob"]).order_by("order").first()
    login(people["bob"]).post(reverse("labeling:answer", args=[bobs.pk]), {"key": "y"})
    client = login(people["ana"])
    assert client.post(reverse("labeling:undo", args=[evaluation.pk])).status_code == 302
    assert Judgment.objects.filter(assignment=bobs).exists()  # ana's undo took back nothing of bob's
    # ana's card for an item bob judged never says what bob answered
    shared = Assignment.objects.filter(evaluation=evaluation, evaluator=people["ana"], item=bobs.item).first()
    if shared is not None:
        Assignment.objects.filter(evaluation=evaluation, evaluator=people["ana"]).exclude(pk=shared.pk).delete()
        body = client.get(reverse("labeling:judge", args=[evaluation.pk])).content.decode()
        # bob as a word: the page's random CSRF token may hold the letters
        assert f'data-assignment="{shared.pk}"' in body and not re.search(r"\bbob\b", body)
    assert client.get(reverse("labeling:copy", args=[bobs.pk, "source"])).status_code == 404


def test_stored_copies_of_another_evaluators_items_are_404(login, people, evaluation):
    bobs = Assignment.objects.filter(evaluation=evaluation, evaluator=people["bob"]).first()
    assert login(people["ana"]).get(reverse("labeling:copy", args=[bobs.pk, "source"])).status_code == 404


def test_staff_superusers_count_as_admins(login, django_user_model, evaluation):
    root = django_user_model.objects.create_superuser("root", "r@example.org", "a-long-password-1")
    assert login(root).get(reverse("labeling:new")).status_code == 200


def test_forms_need_the_csrf_token(people, evaluation):
    from django.test import Client
    client = Client(enforce_csrf_checks=True)
    client.force_login(people["ana"])
    assignment = Assignment.objects.filter(evaluation=evaluation, evaluator=people["ana"]).first()
    assert client.post(reverse("labeling:answer", args=[assignment.pk]), {"key": "y"}).status_code == 403
    assert not Judgment.objects.exists()


def test_only_admins_close_an_evaluation_and_closing_is_announced_once(login, people, evaluation,
                                                                        django_capture_on_commit_callbacks):
    from labeling.signals import evaluation_closed
    heard = []
    evaluation_closed.connect(lambda sender, evaluation_id, **kw: heard.append(evaluation_id), weak=False,
                              dispatch_uid="test-closed")
    try:
        assert login(people["ana"]).post(reverse("labeling:close", args=[evaluation.pk])).status_code == 403
        client = login(people["admin"])
        with django_capture_on_commit_callbacks(execute=True):
            client.post(reverse("labeling:close", args=[evaluation.pk]))
            client.post(reverse("labeling:close", args=[evaluation.pk]))
        evaluation.refresh_from_db()
        assert evaluation.state == "closed" and evaluation.closed_at is not None and heard == [evaluation.pk]
        client.post(reverse("labeling:reopen", args=[evaluation.pk]))
        evaluation.refresh_from_db()
        assert evaluation.state == "open"
    finally:
        evaluation_closed.disconnect(dispatch_uid="test-closed")
