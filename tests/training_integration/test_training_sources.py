"""The retraining page says which evaluations feed training, and a refused "Train now" says why:
only improve evaluations' judgments train, estimate evaluations never do."""
import pytest
from django.urls import reverse

from tests.training_integration.conftest import judge_all, make_pairs, truth_by_url

pytestmark = pytest.mark.django_db(transaction=True)

TRUTH = [i % 3 != 0 for i in range(30)]  # 20 parallel, 10 not


def test_a_refusal_after_judging_an_estimate_evaluation_names_improve_evaluations(client, people, sync_jobs):
    crawl = make_pairs(TRUTH, informative=True, filter_kept=[True] * len(TRUTH))
    judge_all(crawl, people["ana"], people["admin"], truth_by_url(TRUTH), purpose="estimate")
    client.force_login(people["admin"])
    page = client.post(reverse("training:train"), follow=True).content.decode()
    assert ("0 judged yes and 0 judged no among improve evaluations; estimate evaluations measure precision "
            "and never train; training needs 5 of each") in page
    assert "Which evaluations feed training" in page
    assert "nothing: measures precision only" in page


def test_an_improve_evaluation_is_listed_with_the_answers_it_gives_training(client, people, sync_jobs):
    crawl = make_pairs(TRUTH, informative=True, filter_kept=[True] * len(TRUTH))
    judge_all(crawl, people["ana"], people["admin"], truth_by_url(TRUTH), purpose="improve")
    client.force_login(people["admin"])
    page = client.get(reverse("training:index")).content.decode()
    assert "20 judged yes, 10 judged no" in page
