"""A verdict is stored once per assignment, however it arrives: a second answer read before the first
was stored (a second tab, a resent form racing the first) changes nothing and says so, and every new
judgment is announced to post_save listeners as a saved model would be."""
import pytest
from django.db.models.signals import post_save

from labeling.creation import create_evaluation
from labeling.judging import record
from labeling.models import Assignment, Judgment

pytestmark = pytest.mark.django_db


def _first_assignment(crawl, people):
    evaluation = create_evaluation(name="once", what="pairs", crawls=[crawl], stratify_by="verdict", sample_size=4,
                                   seed=3, overlap=0.0, purpose="estimate", evaluators=[people["ana"]])
    return Assignment.objects.filter(evaluation=evaluation).order_by("order").first()


def test_an_answer_read_before_the_first_was_stored_keeps_the_first(crawl, people):
    first = _first_assignment(crawl, people)
    tab_one, tab_two = (Assignment.objects.select_related("evaluation", "judgment").get(pk=first.pk)
                        for _ in range(2))  # both read "not judged yet"
    stored, new = record(tab_one, "yes", "", 4.0)
    again, new_again = record(tab_two, "no", "same_language", 9.0)
    assert new and not new_again and again.pk == stored.pk
    judgment = Judgment.objects.get(assignment=first)
    assert (judgment.verdict, judgment.category, judgment.seconds) == ("yes", "", 4.0)
    assert judgment.created_at is not None


def test_a_new_judgment_is_announced_once_and_a_refused_one_not(crawl, people):
    first = _first_assignment(crawl, people)
    announced = []

    def listener(sender, instance, created, **kwargs):
        announced.append((instance.pk, created, instance.assignment_id))

    post_save.connect(listener, sender=Judgment, dispatch_uid="test_record_once")
    try:
        tab_one, tab_two = (Assignment.objects.select_related("evaluation", "judgment").get(pk=first.pk)
                            for _ in range(2))
        stored, _ = record(tab_one, "yes", "", None)
        record(tab_two, "no", "", None)
    finally:
        post_save.disconnect(sender=Judgment, dispatch_uid="test_record_once")
    assert announced == [(stored.pk, True, first.pk)]
