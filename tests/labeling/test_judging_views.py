"""The judging card through the real views: answer, repeat, undo, progress, no-JavaScript fallback."""
import re

import pytest
from django.urls import reverse

from labeling.models import Assignment, Judgment
from labeling.verdicts import final_verdict

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def shown_assignment(body: str) -> int:
    return int(re.search(r'data-assignment="(\d+)"', body).group(1))


def progress_of(body: str) -> tuple[int, int]:
    match = re.search(r'<b id="done">(\d+)</b> / <b id="total">(\d+)</b>', body)
    return int(match.group(1)), int(match.group(2))


def test_the_card_shows_the_first_item_with_its_keys(login, people, evaluation):
    body = login(people["ana"]).get(reverse("labeling:judge", args=[evaluation.pk])).content.decode()
    first = Assignment.objects.filter(evaluation=evaluation, evaluator=people["ana"]).order_by("order").first()
    assert shown_assignment(body) == first.pk
    assert progress_of(body) == (0, 9)
    for key, label in [("y", "Parallel"), ("n", "Not parallel"), ("1", "Language identification error"),
                       ("5", "False bilingual text"), ("p", "Partial"), ("s", "Skip"), ("u", "Undo"), ("?", "Help")]:
        assert f"<kbd>{key}</kbd> {label}" in body
    assert first.item.pair.source_page.title in body and first.item.pair.target_page.title in body


def test_an_answer_is_stored_and_the_next_item_comes_back_as_a_partial(login, people, evaluation):
    client = login(people["ana"])
    first = shown_assignment(client.get(reverse("labeling:judge", args=[evaluation.pk])).content.decode())
    response = client.post(reverse("labeling:answer", args=[first]), {"key": "3", "shown": "0"}, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200 and "<!doctype" not in body and "HX-Request" in response["Vary"]
    assert shown_assignment(body) != first and progress_of(body) == (1, 9)
    judgment = Judgment.objects.get(assignment_id=first)
    assert (judgment.verdict, judgment.category) == ("no", "same_language")


def test_a_repeated_answer_changes_nothing(login, people, evaluation):
    client = login(people["ana"])
    first = Assignment.objects.filter(evaluation=evaluation, evaluator=people["ana"]).order_by("order").first()
    client.post(reverse("labeling:answer", args=[first.pk]), {"key": "y"}, **HTMX)
    body = client.post(reverse("labeling:answer", args=[first.pk]), {"key": "n"}, **HTMX).content.decode()
    assert Judgment.objects.filter(assignment=first).count() == 1
    assert Judgment.objects.get(assignment=first).verdict == "yes"
    assert progress_of(body) == (1, 9)


def test_undo_takes_back_the_last_answer_and_shows_its_item_again(login, people, evaluation):
    client = login(people["ana"])
    queue = list(Assignment.objects.filter(evaluation=evaluation, evaluator=people["ana"]).order_by("order"))
    client.post(reverse("labeling:answer", args=[queue[0].pk]), {"key": "y"}, **HTMX)
    client.post(reverse("labeling:answer", args=[queue[1].pk]), {"key": "p"}, **HTMX)
    body = client.post(reverse("labeling:undo", args=[evaluation.pk]), **HTMX).content.decode()
    assert shown_assignment(body) == queue[1].pk and progress_of(body) == (1, 9)
    assert "Took back your last answer" in body
    assert list(Judgment.objects.values_list("assignment_id", flat=True)) == [queue[0].pk]


def test_without_javascript_an_answer_redirects_back_to_the_card(login, people, evaluation):
    client = login(people["ana"])
    first = Assignment.objects.filter(evaluation=evaluation, evaluator=people["ana"]).order_by("order").first()
    response = client.post(reverse("labeling:answer", args=[first.pk]), {"key": "s"})
    assert response.status_code == 302
    assert response.url == reverse("labeling:judge", args=[evaluation.pk]) + f"?answered={first.pk}"  # the echo
    assert Judgment.objects.get(assignment=first).verdict == "skip"


def test_an_unknown_key_is_refused_by_name(login, people, evaluation):
    first = Assignment.objects.filter(evaluation=evaluation, evaluator=people["ana"]).first()
    response = login(people["ana"]).post(reverse("labeling:answer", args=[first.pk]), {"key": "x"})
    assert response.status_code == 400 and b"unknown key 'x'" in response.content
    assert not Judgment.objects.exists()


def test_a_closed_evaluation_takes_no_answers(login, people, evaluation):
    evaluation.state = "closed"
    evaluation.save(update_fields=["state"])
    first = Assignment.objects.filter(evaluation=evaluation, evaluator=people["ana"]).first()
    response = login(people["ana"]).post(reverse("labeling:answer", args=[first.pk]), {"key": "y"})
    assert response.status_code == 400 and b"closed" in response.content


def test_after_the_last_item_the_card_says_all_done(login, people, evaluation):
    client = login(people["ana"])
    for assignment in Assignment.objects.filter(evaluation=evaluation, evaluator=people["ana"]):
        client.post(reverse("labeling:answer", args=[assignment.pk]), {"key": "y"})
    body = client.get(reverse("labeling:judge", args=[evaluation.pk])).content.decode()
    assert "All done" in body and progress_of(body) == (9, 9)


def test_final_verdict_is_the_adjudication_else_the_agreement_else_the_single_judgment(login, people, evaluation):
    from labeling.models import Adjudication
    shared = next(item for item in evaluation.items.all() if item.assignments.count() == 2)
    assert final_verdict(shared) is None
    for who, key in (("ana", "y"), ("bob", "n")):
        assignment = shared.assignments.get(evaluator=people[who])
        login(people[who]).post(reverse("labeling:answer", args=[assignment.pk]), {"key": key})
    assert final_verdict(shared) is None  # disagreement waits for an admin
    Adjudication.objects.create(item=shared, verdict="no", category="invalid_url", by=people["admin"])
    assert final_verdict(shared) == ("no", "invalid_url", "adjudication")
    single = next(item for item in evaluation.items.all() if item.assignments.count() == 1)
    assignment = single.assignments.get()
    login(assignment.evaluator).post(reverse("labeling:answer", args=[assignment.pk]), {"key": "4"})
    assert final_verdict(single) == ("no", "extraction", "single")


def test_the_help_panel_lists_the_keys(login, people):
    body = login(people["ana"]).get(reverse("labeling:help") + "?what=sites", HTTP_HX_REQUEST="true").content.decode()
    assert "Not bilingual" in body and "<kbd>Esc</kbd>" in body


def test_the_help_opened_on_its_own_is_a_whole_page_whose_close_leads_to_labeling(login, people):
    client = login(people["ana"])
    body = client.get(reverse("labeling:help") + "?what=sites").content.decode()
    assert "<title>Keys and judging guidelines" in body and '<html lang="en">' in body
    assert "Not bilingual" in body and f'href="{reverse("labeling:index")}" class="key">Close' in body
    assert client.get(reverse("labeling:help") + "?close=1").url == reverse("labeling:index")


def test_the_time_taken_is_stored_and_a_forged_time_is_ignored(login, people, evaluation):
    import time
    client = login(people["ana"])
    queue = list(Assignment.objects.filter(evaluation=evaluation, evaluator=people["ana"]).order_by("order"))
    client.post(reverse("labeling:answer", args=[queue[0].pk]), {"key": "y", "shown": f"{time.time() - 4:.3f}"})
    client.post(reverse("labeling:answer", args=[queue[1].pk]), {"key": "y", "shown": "nan"})
    client.post(reverse("labeling:answer", args=[queue[2].pk]), {"key": "y", "shown": "1"})  # 1970: capped
    seconds = [Judgment.objects.get(assignment=a).seconds for a in queue[:3]]
    assert 4.0 <= seconds[0] < 30 and seconds[1] is None and seconds[2] == 3600.0
    body = client.get(reverse("labeling:judge", args=[evaluation.pk])).content.decode()
    # pace over answers with a time, each capped at 120 s: 2 answers in (~4 + 120) s ≈ 0.97/min
    assert re.search(r'id="pace"[^>]*>0\.9\d?/min|id="pace"[^>]*>1\.0/min', body)
