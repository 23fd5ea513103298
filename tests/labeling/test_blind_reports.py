"""Blind double annotation: reports, their item lists, downloads, agreement and adjudication hold
everyone's answers, so they are for admins and reviewers (group viewers) only. An evaluator, in the
evaluation or not, gets 403 and none of another evaluator's counts or answers; a reviewer who judges
in an open evaluation reads no report until it closes."""
import re

import pytest
from django.urls import reverse

from labeling.models import Evaluation
from tests.labeling.report_fixture import build_evaluation

pytestmark = pytest.mark.django_db


@pytest.fixture
def fixture():
    return build_evaluation()


def report_urls(pk: int) -> list[str]:
    items = reverse("labeling_report:items", args=[pk])
    return [reverse("labeling_report:reports"), reverse("labeling_report:report", args=[pk]), items,
            f"{items}?outcome=correct", f"{items}?evaluator=ana", f"{items}?evaluator=bo&outcome=wrong",
            f"{items}?category=language_id", f"{items}?pair=ana,bo", f"{items}?disagreed=1",
            reverse("labeling_report:report_download", args=[pk, "csv"]),
            reverse("labeling_report:report_download", args=[pk, "json"]),
            reverse("labeling_report:judgments_download", args=[pk, "csv"]),
            reverse("labeling_report:judgments_download", args=[pk, "json"]),
            reverse("labeling_report:disagreements", args=[pk])]


@pytest.mark.parametrize("who", ["ana", "bo", "outsider"])
def test_evaluators_in_the_evaluation_or_not_get_403_and_no_answer(client, fixture, who, django_user_model):
    from tests.labeling.report_fixture import user
    person = fixture[who] if who != "outsider" else user("olga", "evaluators")
    client.force_login(person)
    for url in report_urls(fixture["evaluation"].pk):
        response = client.get(url)
        body = response.content.decode()
        assert response.status_code == 403, url
        # ana's name shows only to ana herself (the menu, the 403 page's "logged in as"); as a
        # word, since a page's random CSRF token may hold the letters "ana"
        assert not re.search(r"\bana\b", body) or person.username == "ana", url
        assert "Stratified estimate" not in body and "i1:" not in body, url


def test_evaluators_get_403_even_once_the_evaluation_is_closed(client, fixture):
    # another open or later evaluation may hold the same pairs: a closed report would give them away
    fixture["evaluation"].close()
    client.force_login(fixture["bo"])
    for url in report_urls(fixture["evaluation"].pk):
        assert client.get(url).status_code == 403, url


def test_a_reviewer_reads_reports_and_an_evaluator_cannot_reach_one_by_guessing_its_id(client, fixture):
    pk = fixture["evaluation"].pk
    client.force_login(fixture["viewer"])
    assert client.get(reverse("labeling_report:report", args=[pk])).status_code == 200
    assert client.get(reverse("labeling_report:items", args=[pk]), {"outcome": "correct"}).status_code == 200
    other = Evaluation.objects.create(name="Another", seed=2)
    client.force_login(fixture["ana"])
    assert client.get(reverse("labeling_report:report", args=[other.pk])).status_code == 403
    assert client.get(reverse("labeling_report:report", args=[other.pk + 100])).status_code == 403


def test_a_reviewer_who_judges_in_an_open_evaluation_reads_no_report_until_it_closes(client, fixture):
    judging = Evaluation.objects.create(name="Reviewer judges", seed=3)
    judging.evaluators.add(fixture["viewer"])
    client.force_login(fixture["viewer"])
    response = client.get(reverse("labeling_report:report", args=[fixture["evaluation"].pk]))
    assert response.status_code == 403 and "Stratified estimate" not in response.content.decode()
    assert 'href="/labeling/reports/"' not in client.get(reverse("labeling:index")).content.decode()
    judging.close()
    assert client.get(reverse("labeling_report:report", args=[fixture["evaluation"].pk])).status_code == 200


def test_an_evaluators_list_shows_only_their_own_progress(client, fixture):
    client.force_login(fixture["cy"])  # cy judged one item, shared with ana and bo
    page = client.get(reverse("labeling:index")).content.decode()
    row = page.split("Fixture evaluation")[1].split("</tr>")[0]
    cells = [c.split("</td>")[0] for c in row.split('<td class="num">')[1:]]
    assert cells[:2] == ["1", "1"]  # cy's own 1 of 1, not the evaluation's 17 judgments
    assert "All evaluations" not in page
