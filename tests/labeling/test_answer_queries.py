"""What one judgment costs the database: the answer round trip (store it, render the next card)
in a fixed number of queries, whatever the card shows and however far the evaluator has got.

The figures: the session, the user with their labeling groups (labeling.auth_backend), the
assignment with its evaluation and judgment, the insert (one statement, ON CONFLICT DO NOTHING),
the next assignment with everything its card shows, progress with pace. A link card reads the
linked page by URL: one more. A new query per request (an N+1 in a card, a permission check
read again) fails here before it shows in bench/judging.py."""
import re

import pytest
from django.urls import reverse

from labeling.creation import create_evaluation
from labeling.models import Assignment, Judgment

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
ROUND_TRIP_QUERIES = {"pairs": 6, "sites": 6, "links": 7}
JUDGE_PAGE_QUERIES = 5  # session, user, evaluation, next assignment with its card, progress


def shown_assignment(body: str) -> int:
    return int(re.search(r'data-assignment="(\d+)"', body).group(1))


def evaluation_of(what, crawl, people):
    return create_evaluation(name=what, what=what, crawls=[crawl], stratify_by="verdict", sample_size=12, seed=3,
                             overlap=0.0, purpose="estimate", evaluators=[people["ana"]])


@pytest.mark.parametrize("what", ["pairs", "links"])
def test_every_answer_round_trip_takes_the_same_few_queries(what, login, people, crawl,
                                                           django_assert_num_queries):
    client = login(people["ana"])
    evaluation = evaluation_of(what, crawl, people)
    body = client.get(reverse("labeling:judge", args=[evaluation.pk])).content.decode()
    for done in range(1, 4):  # the cost does not grow with the answers given
        answered = shown_assignment(body)
        with django_assert_num_queries(ROUND_TRIP_QUERIES[what]):
            response = client.post(reverse("labeling:answer", args=[answered]), {"key": "y", "shown": "0"}, **HTMX)
        body = response.content.decode()
        assert response.status_code == 200 and Judgment.objects.filter(assignment_id=answered).exists()
        assert shown_assignment(body) != answered and f'<b id="done">{done}</b>' in body


def test_a_site_card_and_its_answer_take_the_same_few_queries(login, people, crawl, django_assert_num_queries):
    client = login(people["ana"])
    evaluation = evaluation_of("sites", crawl, people)
    assignment = Assignment.objects.get(evaluation=evaluation)
    with django_assert_num_queries(JUDGE_PAGE_QUERIES):
        body = client.get(reverse("labeling:judge", args=[evaluation.pk])).content.decode()
    assert shown_assignment(body) == assignment.pk and "crawl.example.rs" in body
    with django_assert_num_queries(ROUND_TRIP_QUERIES["sites"]):
        body = client.post(reverse("labeling:answer", args=[assignment.pk]), {"key": "y"}, **HTMX).content.decode()
    assert "All done" in body and Judgment.objects.filter(assignment=assignment).exists()


def test_a_resent_answer_costs_no_write(login, people, crawl, django_assert_num_queries):
    evaluation = evaluation_of("pairs", crawl, people)
    client = login(people["ana"])
    first = Assignment.objects.filter(evaluation=evaluation).order_by("order").first()
    client.post(reverse("labeling:answer", args=[first.pk]), {"key": "y"}, **HTMX)
    with django_assert_num_queries(ROUND_TRIP_QUERIES["pairs"] - 1):  # the judgment came with the assignment: no insert
        client.post(reverse("labeling:answer", args=[first.pk]), {"key": "n"}, **HTMX)
    assert Judgment.objects.get(assignment=first).verdict == "yes"
