"""The disagreement list and adjudication: admins only; the chosen answer becomes the final verdict."""
import pytest
from django.urls import reverse

from labeling.models import Adjudication, EvaluationItem
from labeling.verdicts import final_verdict
from tests.labeling.report_fixture import build_evaluation

pytestmark = pytest.mark.django_db


@pytest.fixture
def fixture():
    return build_evaluation()


def disagreements_url(fixture):
    return reverse("labeling_report:disagreements", args=[fixture["evaluation"].pk])


def adjudicate_url(fixture, key):
    return reverse("labeling_report:adjudicate", args=[fixture["items"][key].pk])


def test_admin_sees_both_verdicts_of_each_disagreement(client, fixture):
    client.force_login(fixture["admin"])
    page = client.get(disagreements_url(fixture)).content.decode()
    assert "<strong class=\"figure\">1</strong> to decide of 2 items" in page
    # i10 (undecided) comes first and carries the keyboard triggers; i6 is decided already.
    assert page.index(">i10: ") < page.index(">i6: ")
    i10 = page.split(">i10: ")[1].split("</section>")[0]
    assert "keyup[key==&#x27;1&#x27;]" in i10 or "keyup[key=='1']" in i10
    assert "(bo)" in i10 and "(ana)" in i10 and "tone-yes" in i10 and "tone-no" in i10
    assert "i5: " not in page  # ana and bo agreed on i5


@pytest.mark.parametrize("who", ["viewer", "ana"])
def test_viewers_and_evaluators_cannot_see_the_disagreement_list_or_adjudicate(client, fixture, who):
    client.force_login(fixture[who])
    assert client.get(disagreements_url(fixture)).status_code == 403
    assert client.post(adjudicate_url(fixture, "i10"), {"answer": "1"}).status_code == 403
    assert not Adjudication.objects.filter(item=fixture["items"]["i10"]).exists()


def test_anonymous_is_sent_to_the_login_page(client, fixture):
    response = client.get(disagreements_url(fixture))
    assert response.status_code == 302 and "login" in response["Location"]


def test_the_adjudicated_answer_becomes_the_final_verdict_and_feeds_the_report(client, fixture):
    item = fixture["items"]["i10"]
    assert final_verdict(item) is None
    client.force_login(fixture["admin"])
    # answers sorted: 1 = ("no", "") by bo, 2 = ("yes", "") by ana
    response = client.post(adjudicate_url(fixture, "i10"), {"answer": "2"})
    assert response.status_code == 302 and response["Location"].endswith(f"#item-{item.pk}")
    item.refresh_from_db()
    assert final_verdict(item) == ("yes", "", "adjudication")
    page = client.get(disagreements_url(fixture)).content.decode()
    assert "<strong class=\"figure\">0</strong> to decide" in page
    report = client.get(reverse("labeling_report:report_download", args=[fixture["evaluation"].pk, "json"])).json()
    removed = next(s for s in report["strata"] if s["name"] == "local · removed")
    assert (removed["correct"], removed["judged"]) == (1, 2)
    # deciding again replaces the decision; it never adds a second one
    client.post(adjudicate_url(fixture, "i10"), {"answer": "1"})
    assert Adjudication.objects.filter(item=item).count() == 1
    assert final_verdict(EvaluationItem.objects.get(pk=item.pk)) == ("no", "", "adjudication")


@pytest.mark.parametrize("answer", ["0", "3", "yes", ""])
def test_an_answer_outside_the_judges_answers_is_refused(client, fixture, answer):
    client.force_login(fixture["admin"])
    response = client.post(adjudicate_url(fixture, "i10"), {"answer": answer})
    assert response.status_code == 400 and b"answer must be one of 1" in response.content
    assert not Adjudication.objects.filter(item=fixture["items"]["i10"]).exists()


def test_adjudication_refuses_get(client, fixture):
    client.force_login(fixture["admin"])
    assert client.get(adjudicate_url(fixture, "i10")).status_code == 405


def test_viewer_reads_the_report_and_the_list_of_reports(client, fixture):
    client.force_login(fixture["viewer"])
    assert client.get(reverse("labeling_report:report", args=[fixture["evaluation"].pk])).status_code == 200
    page = client.get(reverse("labeling_report:reports")).content.decode()
    assert "Fixture evaluation" in page and "Disagreements" not in page
