"""The answer just given is echoed on the next card ("Your last answer: … (undo)"), so a mis-key is
noticed while undo can still take it back; never someone else's answer."""
import re

import pytest
from django.urls import reverse

from labeling.models import Assignment, Judgment

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def echo_of(body: str) -> str | None:
    found = re.search(r'<div class="echo" id="last-answer"[^>]*>(.*?)</div>', body, re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", found.group(1))).strip() if found else None


def queue(evaluation, person):
    return list(Assignment.objects.filter(evaluation=evaluation, evaluator=person).order_by("order"))


def test_the_next_card_echoes_the_answer_just_given_with_an_undo(login, people, evaluation):
    client = login(people["ana"])
    first, second = queue(evaluation, people["ana"])[:2]
    assert echo_of(client.get(reverse("labeling:judge", args=[evaluation.pk])).content.decode()) is None
    body = client.post(reverse("labeling:answer", args=[first.pk]), {"key": "3"}, **HTMX).content.decode()
    assert echo_of(body) == "Your last answer: 3 Both pages in one language on item 1 (undo)"
    assert f'data-assignment="{second.pk}"' in body
    assert f'hx-post="{reverse("labeling:undo", args=[evaluation.pk])}"' in body.split('id="last-answer"')[1]
    body = client.post(reverse("labeling:undo", args=[evaluation.pk]), **HTMX).content.decode()
    assert echo_of(body) is None and "Took back your last answer." in body
    assert not Judgment.objects.filter(assignment=first).exists()


def test_without_javascript_the_redirect_carries_the_echo(login, people, evaluation):
    client = login(people["ana"])
    first = queue(evaluation, people["ana"])[0]
    response = client.post(reverse("labeling:answer", args=[first.pk]), {"key": "y"})
    assert response.status_code == 302 and response.url.endswith(f"?answered={first.pk}")
    assert echo_of(client.get(response.url).content.decode()) == "Your last answer: y Parallel on item 1 (undo)"


def test_another_evaluators_answer_is_never_echoed(login, people, evaluation):
    bobs = queue(evaluation, people["bob"])[0]
    login(people["bob"]).post(reverse("labeling:answer", args=[bobs.pk]), {"key": "n"})
    client = login(people["ana"])
    for answered in (str(bobs.pk), "x", "99999999999999999999"):
        response = client.get(reverse("labeling:judge", args=[evaluation.pk]), {"answered": answered})
        assert response.status_code == 200 and echo_of(response.content.decode()) is None
