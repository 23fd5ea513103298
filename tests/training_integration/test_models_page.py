"""The retraining page: admins only; it shows each version's comparison; train and roll back by POST."""
import pytest
from django.urls import reverse
from django.utils import timezone

from training.models import TrainedModel, TrainingRun

pytestmark = pytest.mark.django_db


def version(n: int, state: str, new: float, current: float) -> TrainedModel:
    return TrainedModel.objects.create(
        kind="link_predictor", version=n, params={}, state=state, promoted_at=timezone.now() if state != "candidate" else None,
        metrics={"new_mean": new, "current_mean": current, "folds": 5, "current": "the shipped model"},
        trained_on={"total": 120, "positive": 30, "negative": 90}, reason=f"{state} v{n}")


def test_anonymous_users_are_sent_to_log_in(client):
    response = client.get(reverse("training:index"))
    assert response.status_code == 302 and "login" in response["Location"]


@pytest.mark.parametrize("who", ["ana", "vera"])
def test_evaluators_and_viewers_are_refused(client, people, who):
    client.force_login(people[who])
    assert client.get(reverse("training:index")).status_code == 403
    version(1, "promoted", 0.9, 0.8)
    assert client.post(reverse("training:rollback", args=["link_predictor"])).status_code == 403
    assert client.post(reverse("training:train")).status_code == 403
    assert TrainedModel.objects.get(version=1).state == "promoted" and not TrainingRun.objects.exists()


def test_an_admin_sees_the_comparison_and_rolls_back(client, people):
    version(1, "retired", 0.81, 0.75)
    version(2, "promoted", 0.912, 0.81)
    client.force_login(people["admin"])
    page = client.get(reverse("training:index")).content.decode()
    assert "v2" in page and "0.912" in page and "the shipped model" in page and "120 (30 yes)" in page
    response = client.post(reverse("training:rollback", args=["link_predictor"]), follow=True)
    assert "rolled back to v1" in response.content.decode()
    assert TrainedModel.objects.get(version=1).state == "promoted"
    assert TrainedModel.objects.get(version=2).state == "rejected"
    assert client.get(reverse("training:rollback", args=["link_predictor"])).status_code == 405
    assert client.post(reverse("training:rollback", args=["nothing"])).status_code == 404


def test_the_train_button_records_a_run(client, people, settings):
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    client.force_login(people["admin"])
    response = client.post(reverse("training:train"), follow=True)
    assert "Training run" in response.content.decode()
    assert TrainingRun.objects.get().trigger == "button"


def test_the_page_refreshes_itself_only_while_a_run_is_under_way(client, people):
    client.force_login(people["admin"])
    run = TrainingRun.objects.create(trigger="button")
    for state, polls in [("pending", True), ("running", True), ("done", False), ("failed", False)]:
        TrainingRun.objects.filter(pk=run.pk).update(state=state)
        page = client.get(reverse("training:index")).content.decode()
        assert ('hx-trigger="every 2s"' in page) is polls, state
