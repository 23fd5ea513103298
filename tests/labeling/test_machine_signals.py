"""The machine's signals on the judging card: never on an estimate evaluation (a precision judged with
the answer in view is biased), and on an improve evaluation only when it says so (off by default)."""
import pytest
from django.contrib.admin.sites import site as admin_site
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from labeling.creation import create_evaluation
from labeling.forms import EvaluationForm
from labeling.models import Assignment, Evaluation

pytestmark = pytest.mark.django_db
# What the machine decided or measured, as the card would print it.
SIGNALS = ("filter: kept", "filter: removed", "Sim_Same", "filter_kept", "Sim (Def. 9)", "badge method",
           "stratum <span", "detector: bilingual", "Link Predictor", 'class="badge script"', "language ?", "Link score")


def card_of(login, people, crawl, what="pairs", purpose="estimate", show=False):
    evaluation = create_evaluation(name=f"{what} {purpose}", what=what, crawls=[crawl], stratify_by="verdict",
                                   sample_size=20, seed=4, overlap=0.0, purpose=purpose, evaluators=[people["ana"]],
                                   show_machine_signals=show)
    for assignment in Assignment.objects.filter(evaluation=evaluation).select_related("item__pair"):
        pair = assignment.item.pair
        if pair is not None:
            pair.sim_same, pair.scores = 0.5, {"filter_kept": True, "sim_same": 0.5}
            pair.save(update_fields=["sim_same", "scores"])
    return login(people["ana"]).get(reverse("labeling:judge", args=[evaluation.pk])).content.decode()


@pytest.mark.parametrize("what", ["pairs", "sites", "links"])
def test_an_estimate_card_shows_none_of_the_machines_signals(login, people, crawl, what):
    body = card_of(login, people, crawl, what)
    assert 'id="card" data-assignment' in body
    assert [s for s in SIGNALS if s in body] == []
    if what == "pairs":
        assert "The first paragraph of page number" in body and "/en/" in body  # the pages are all there


def test_an_improve_card_is_blind_by_default(login, people, crawl):
    body = card_of(login, people, crawl, purpose="improve")
    assert [s for s in SIGNALS if s in body] == []


def test_an_improve_evaluation_may_show_the_signals(login, people, crawl):
    body = card_of(login, people, crawl, purpose="improve", show=True)
    assert "filter: " in body and "Sim_Same" in body and "filter_kept" in body and "stratum <span" in body
    assert 'class="badge script"' in body  # the identifier's language and script of each page


def form_data(crawl, people, **changes):
    return {"name": "x", "what": "pairs", "crawls": [crawl.pk], "stratify_by": "verdict", "sample_size": 3,
            "seed": 1, "overlap": 0, "purpose": "estimate", "evaluators": [people["ana"].pk], **changes}


def test_the_form_refuses_signals_on_an_estimate_and_offers_them_for_improve(people, crawl):
    form = EvaluationForm(form_data(crawl, people, show_machine_signals="on"))
    assert not form.is_valid() and "never shows the machine's signals" in form.errors["show_machine_signals"][0]
    form = EvaluationForm(form_data(crawl, people, show_machine_signals="on", purpose="improve"))
    assert form.is_valid(), form.errors
    assert form.cleaned_data["show_machine_signals"] is True
    assert EvaluationForm(form_data(crawl, people)).is_valid()


def test_the_new_evaluation_page_has_the_setting(login, people, crawl):
    body = login(people["admin"]).get(reverse("labeling:new")).content.decode()
    assert 'name="show_machine_signals"' in body and "Estimate evaluations never do" in body


def test_the_admin_shows_and_sets_it_and_refuses_it_on_an_estimate(login, people, crawl, django_user_model):
    root = django_user_model.objects.create_superuser("root", "r@example.org", "a-long-password-1")
    client = login(root)
    evaluation = create_evaluation(name="teach", what="pairs", crawls=[crawl], stratify_by="verdict", sample_size=3,
                                   seed=1, overlap=0.0, purpose="improve", evaluators=[people["ana"]])
    assert "show_machine_signals" in admin_site._registry[Evaluation].list_display
    url = reverse("admin:labeling_evaluation_change", args=[evaluation.pk])
    page = client.get(url).content.decode()
    assert 'name="show_machine_signals"' in page
    data = {"name": "teach", "what": "pairs", "crawls": [crawl.pk], "stratify_by": "verdict", "sample_size": 3,
            "seed": 1, "overlap": 0.0, "purpose": "estimate", "evaluators": [people["ana"].pk], "state": "open",
            "show_machine_signals": "on"}
    response = client.post(url, data)
    assert response.status_code == 200 and "never shows the machine" in response.content.decode()
    client.post(url, {**data, "purpose": "improve"})
    evaluation.refresh_from_db()
    assert evaluation.show_machine_signals and evaluation.card_shows_machine_signals


def test_the_command_refuses_signals_on_an_estimate(people, crawl):
    with pytest.raises(CommandError, match="show_machine_signals: An estimate evaluation never shows"):
        call_command("evaluation", "create", "--name", "x", "--crawl", str(crawl.pk), "--evaluator", "ana",
                     "--overlap", "0", "--show-machine-signals")
    call_command("evaluation", "create", "--name", "y", "--crawl", str(crawl.pk), "--evaluator", "ana",
                 "--overlap", "0", "--purpose", "improve", "--show-machine-signals")
    assert Evaluation.objects.get(name="y").show_machine_signals
