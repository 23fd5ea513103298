"""The user's labeling groups read with the user row (labeling.auth_backend): as fresh as before."""
import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.urls import reverse

from labeling.models import Assignment, Judgment
from labeling.permissions import groups_of, is_admin, is_evaluator, is_viewer
from tests.labeling.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_logging_in_through_the_form_still_works_and_the_groups_come_with_the_user(client, people, evaluation):
    response = client.post(reverse("labeling:login"), {"username": "ana", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("labeling:judge", args=[evaluation.pk])).status_code == 200
    assert client.post(reverse("labeling:login"), {"username": "ana", "password": "wrong"}).status_code == 200


def test_a_group_taken_away_counts_from_the_next_request(login, people, evaluation):
    client = login(people["ana"])
    queue = list(Assignment.objects.filter(evaluation=evaluation, evaluator=people["ana"]).order_by("order"))
    assert client.post(reverse("labeling:answer", args=[queue[0].pk]), {"key": "y"}).status_code == 302
    people["ana"].groups.remove(Group.objects.get(name="evaluators"))
    assert client.post(reverse("labeling:answer", args=[queue[1].pk]), {"key": "y"}).status_code == 403
    assert client.get(reverse("labeling:judge", args=[evaluation.pk])).status_code == 403
    assert list(Judgment.objects.values_list("assignment_id", flat=True)) == [queue[0].pk]


def test_a_group_given_counts_from_the_next_request(login, people):
    client = login(people["vera"])
    assert client.get(reverse("labeling:new")).status_code == 403
    people["vera"].groups.add(Group.objects.get(name="admins"))
    assert client.get(reverse("labeling:new")).status_code == 200


def test_an_inactive_user_is_logged_out(login, people):
    client = login(people["ana"])
    get_user_model().objects.filter(pk=people["ana"].pk).update(is_active=False)
    response = client.get(reverse("labeling:index"))
    assert response.status_code == 302 and response.url.startswith(reverse("labeling:login"))


def test_a_user_read_without_the_backend_is_checked_by_a_query_of_its_own(people):
    fresh = get_user_model().objects.get(username="ana")  # no group flags on this object
    assert groups_of(fresh) == {"evaluators"}
    assert is_evaluator(fresh) and is_viewer(fresh) and not is_admin(fresh)
    assert groups_of(get_user_model().objects.get(username="nobody")) == set()
