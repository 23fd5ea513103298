"""The judging answer's queries are compiled once per process (crawlweb.prepared_query): what they
return must be what the querysets themselves return, for every evaluator and every call, not the
first call's answer again."""
import pytest
from django.db.models import Subquery

from crawlweb.prepared_query import PreparedQuery
from labeling.judging import next_assignment, progress, record
from labeling.models import Assignment, Judgment
from labeling.presentation import CARD_DEFERRED, CARD_RELATED

pytestmark = pytest.mark.django_db


def next_by_orm(evaluation, user):
    first = (Assignment.objects.filter(evaluation=evaluation, evaluator=user, judgment__isnull=True)
             .order_by("order").values("pk")[:1])
    return (Assignment.objects.filter(pk=Subquery(first))
            .select_related("item", *CARD_RELATED["pairs"]).defer(*CARD_DEFERRED["pairs"]).first())


def test_the_next_card_is_the_querysets_own_with_its_pages_and_without_the_deferred_columns(
        evaluation, people, django_assert_num_queries):
    for name in ("ana", "bob"):  # a second evaluator gets their own queue, not the first one's answer
        user = people[name]
        while True:
            expected = next_by_orm(evaluation, user)
            with django_assert_num_queries(1):
                found = next_assignment(evaluation, user, CARD_RELATED["pairs"], CARD_DEFERRED["pairs"])
                if found is not None:  # the pages came with it: reading them costs no query
                    pair = found.item.pair
                    texts = (pair.source_page.text, pair.target_page.text, pair.source_page.url)
            if expected is None:
                assert found is None
                break
            assert (found.pk, found.evaluator_id, found.order) == (expected.pk, expected.evaluator_id, expected.order)
            assert texts == (expected.item.pair.source_page.text, expected.item.pair.target_page.text,
                             expected.item.pair.source_page.url)
            assert found.item.pair.source_page.get_deferred_fields() == \
                expected.item.pair.source_page.get_deferred_fields() != set()
            record(found, "yes", "", 4.0)


def test_progress_counts_and_pace_follow_the_answers(evaluation, people):
    ana = people["ana"]
    total = Assignment.objects.filter(evaluation=evaluation, evaluator=ana).count()
    assert (progress(evaluation, ana).done, progress(evaluation, ana).total, progress(evaluation, ana).pace) == \
        (0, total, None)
    for seconds in (2.0, 4.0):
        record(next_assignment(evaluation, ana), "no", "", seconds)
    now = progress(evaluation, ana)
    assert (now.done, now.total) == (2, total)
    assert now.pace == pytest.approx(60.0 * 2 / 6.0)  # two judgments in six seconds: 20 per minute
    assert progress(evaluation, people["bob"]).done == 0


def test_rows_are_the_values_lists_rows_with_dates_converted(evaluation, people):
    ana = people["ana"]
    record(next_assignment(evaluation, ana), "yes", "", 3.0)
    prepared = PreparedQuery(lambda p: Judgment.objects.filter(assignment__evaluator_id=p["user"])
                             .values_list("verdict", "created_at", "seconds"), "user")
    expected = list(Judgment.objects.filter(assignment__evaluator=ana).values_list("verdict", "created_at", "seconds"))
    assert prepared.rows(user=ana.pk) == expected
    assert expected[0][1].tzinfo is not None  # a datetime, as the ORM converts it, on SQLite too
    assert prepared.rows(user=people["bob"].pk) == []


def test_a_placeholder_the_query_does_not_use_or_a_missing_value_is_an_error(people):
    unused = PreparedQuery(lambda p: Assignment.objects.filter(evaluator_id=7), "evaluator")
    with pytest.raises(ValueError, match="placeholders not in the query's parameters: evaluator"):
        unused.first(evaluator=people["ana"].pk)
    prepared = PreparedQuery(lambda p: Assignment.objects.filter(evaluator_id=p["evaluator"]), "evaluator")
    with pytest.raises(TypeError, match="expected values for evaluator"):
        prepared.first(user=1)
    with pytest.raises(TypeError, match="model instances or values_list"):
        PreparedQuery(lambda p: Assignment.objects.filter(evaluator_id=p["e"]).values("pk"), "e").rows(e=1)
