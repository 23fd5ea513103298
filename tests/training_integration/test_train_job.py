"""The train job: trains from judged improve items, compares with the current model, promotes a
better one and rejects a worse one; it runs once per request, and rollback restores the previous."""
import re

import pytest

from labeling.models import Evaluation, Judgment
from training.jobs import request_training, train
from training.models import TrainedModel, TrainingRun
from training.services.promoted import promoted
from training.services.promotion import roll_back
from tests.training_integration.conftest import judge_all, make_pairs, truth_by_url

pytestmark = pytest.mark.django_db(transaction=True)

TRUTH = [i % 3 != 0 for i in range(30)]  # 20 parallel, 10 not


def pair_model(version: int) -> TrainedModel:
    return TrainedModel.objects.get(kind="pair_classifier", version=version)


def test_a_classifier_better_than_the_filter_is_promoted(people, sync_jobs):
    crawl = make_pairs(TRUTH, informative=True, filter_kept=[True] * len(TRUTH))  # the filter keeps everything
    judge_all(crawl, people["ana"], people["admin"], truth_by_url(TRUTH))
    run = request_training(TrainingRun.Trigger.BUTTON, user=people["admin"])
    run.refresh_from_db()
    assert run.state == "done", run.error
    model = pair_model(1)
    assert model.state == "promoted" and model.promoted_at is not None
    assert model.metrics["new_mean"] == 1.0 and model.metrics["current_mean"] == pytest.approx(0.8, abs=0.01)
    assert model.metrics["current"] == "the method's filter" and model.metrics["folds"] == 5
    assert model.trained_on == {"total": 30, "positive": 20, "negative": 10}
    assert model.params["format"] == "pair-classifier" and "promoted: not worse" in model.reason
    assert run.summary["pair_classifier"]["state"] == "promoted"
    assert "skipped" in run.summary["link_predictor"] and "skipped" in run.summary["detector_threshold"]


def test_a_classifier_worse_than_the_filter_is_rejected(people, sync_jobs):
    # the filter keeps every pair of two sites whose judged pairs disagree on what a right pair looks like:
    # on the second, the pairs that look right are the wrong ones; trained on one site, a classifier
    # removes the right pairs of the other
    first = make_pairs(TRUTH, informative=True, filter_kept=[True] * len(TRUTH), name="first")
    judge_all(first, people["ana"], people["admin"], truth_by_url(TRUTH))
    second = make_pairs(TRUTH, informative=True, filter_kept=[True] * len(TRUTH), name="second")
    judge_all(second, people["ana"], people["admin"], truth_by_url([not t for t in TRUTH]))
    request_training(TrainingRun.Trigger.BUTTON)
    model = pair_model(1)
    assert model.state == "rejected" and model.reason.startswith("rejected: worse")
    assert model.metrics["new_mean"] < model.metrics["current_mean"]
    assert model.metrics["grouped"] and model.metrics["current"] == "the method's filter"
    assert promoted("pair_classifier") is None


def test_only_the_pairs_the_filter_kept_are_trained_on(people, sync_jobs):
    # the filter removed every wrong pair: among what it kept there is nothing to learn a removal from
    crawl = make_pairs(TRUTH, informative=True, filter_kept=TRUTH)
    judge_all(crawl, people["ana"], people["admin"], truth_by_url(TRUTH))
    run = request_training(TrainingRun.Trigger.BUTTON)
    run.refresh_from_db()
    assert not TrainedModel.objects.filter(kind="pair_classifier").exists()
    assert run.summary["pair_classifier"]["skipped"] == (
        "of the pairs the filter kept, 20 judged yes and 0 judged no among improve evaluations; "
        "estimate evaluations measure precision and never train; training needs 5 of each")


def test_estimate_items_are_never_trained_on(people, sync_jobs):
    crawl = make_pairs(TRUTH, informative=True, filter_kept=[True] * len(TRUTH))
    judge_all(crawl, people["ana"], people["admin"], truth_by_url(TRUTH), purpose="estimate")
    run = request_training(TrainingRun.Trigger.BUTTON)
    run.refresh_from_db()
    assert not TrainedModel.objects.exists()
    assert run.summary["pair_classifier"]["trained_on"]["total"] == 0


def test_running_the_job_twice_trains_once(people, settings):
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "thread"  # enqueued, not run, while we hold the id
    crawl = make_pairs(TRUTH, informative=True, filter_kept=[True] * len(TRUTH))
    judge_all(crawl, people["ana"], people["admin"], truth_by_url(TRUTH))
    run = TrainingRun.objects.create(trigger=TrainingRun.Trigger.BUTTON)
    train(run.pk)
    train(run.pk)
    assert TrainedModel.objects.filter(kind="pair_classifier").count() == 1


def test_a_better_classifier_on_too_few_judged_pairs_is_not_promoted(people, sync_jobs):
    sync_jobs.TRAIN_PROMOTE_MIN_PER_LABEL = 20  # the default: 10 judged no are too few
    crawl = make_pairs(TRUTH, informative=True, filter_kept=[True] * len(TRUTH))
    judge_all(crawl, people["ana"], people["admin"], truth_by_url(TRUTH))
    request_training(TrainingRun.Trigger.BUTTON, user=people["admin"])
    model = pair_model(1)
    assert model.metrics["new_mean"] > model.metrics["current_mean"], "better in cross-validation"
    assert model.state == "rejected" and promoted("pair_classifier") is None
    assert model.reason.startswith("rejected: not worse, but too few judged to promote "
                                   "(20 judged yes and 10 judged no; promotion needs 20 of each)")


def test_a_promoted_classifier_the_filter_measures_better_than_gives_way_to_the_filter(people, sync_jobs):
    first = make_pairs(TRUTH, informative=True, filter_kept=[True] * len(TRUTH), name="first")
    judge_all(first, people["ana"], people["admin"], truth_by_url(TRUTH))
    request_training(TrainingRun.Trigger.BUTTON)
    assert promoted("pair_classifier")[0] == 1
    # A second crawl where a third of the right pairs look wrong to the features, and 4 wrong ones look right;
    # the filter keeps them all: a classifier that learned the first site removes 20 right pairs here
    looks_right = [i % 3 != 0 for i in range(60)]
    parallel = [i % 3 == 0 or i % 10 != 1 for i in range(60)]
    second = make_pairs(looks_right, informative=True, filter_kept=[True] * 60, name="second")
    judge_all(second, people["ana"], people["admin"], truth_by_url(parallel))
    request_training(TrainingRun.Trigger.BUTTON)
    assert pair_model(2).state == "rejected" and pair_model(2).metrics["current"] == "the method's filter"
    assert pair_model(1).state == "rejected", "classifiers measure worse than the filter on the judged pairs"
    assert re.match(r"rejected after promotion: classifiers trained on the judged pairs measure 0\.\d+ on sites they "
                    r"were not trained on, the method's filter 0\.\d+ \(90 judged pairs\) \(was: promoted: ",
                    pair_model(1).reason), pair_model(1).reason
    assert pair_model(2).metrics["grouped"] and pair_model(2).metrics["folds"] == 2, "two crawls' sites: two folds"
    assert promoted("pair_classifier") is None, "the filter decides again"
    assert roll_back("pair_classifier") is None


def test_rollback_promotes_the_previous_version_again(people, sync_jobs):
    crawl = make_pairs(TRUTH, informative=True, filter_kept=[True] * len(TRUTH))
    judge_all(crawl, people["ana"], people["admin"], truth_by_url(TRUTH))
    request_training(TrainingRun.Trigger.BUTTON)
    request_training(TrainingRun.Trigger.BUTTON)  # v2 is as good as v1: not worse, so promoted
    assert [(m.version, m.state) for m in TrainedModel.objects.filter(kind="pair_classifier")] == \
        [(2, "promoted"), (1, "retired")]
    assert promoted("pair_classifier")[0] == 2
    assert roll_back("pair_classifier", by="alice").version == 1
    assert pair_model(2).state == "rejected" and "rolled back by alice" in pair_model(2).reason
    assert pair_model(1).state == "promoted" and promoted("pair_classifier")[0] == 1
    assert roll_back("pair_classifier") is None  # nothing before v1: the filter decides again
    assert promoted("pair_classifier") is None


def test_closing_an_evaluation_starts_training_once(people, sync_jobs):
    crawl = make_pairs(TRUTH, informative=True, filter_kept=[True] * len(TRUTH))
    evaluation = judge_all(crawl, people["ana"], people["admin"], truth_by_url(TRUTH))
    evaluation.state = Evaluation.State.CLOSED
    evaluation.save()
    evaluation.save()
    runs = TrainingRun.objects.filter(evaluation=evaluation)
    assert [(r.trigger, r.state) for r in runs] == [("evaluation_closed", "done")]
    assert pair_model(1).state == "promoted"


def test_every_n_judgments_starts_training(people, sync_jobs):
    sync_jobs.TRAIN_EVERY_JUDGMENTS = 10
    crawl = make_pairs(TRUTH, informative=True, filter_kept=[True] * len(TRUTH))
    judge_all(crawl, people["ana"], people["admin"], truth_by_url(TRUTH))
    assert Judgment.objects.count() == 30
    assert TrainingRun.objects.filter(trigger="judgments").count() == 3
    assert TrainedModel.objects.filter(kind="pair_classifier", state="promoted").count() == 1
