"""Scoring uses the promoted pair classifier from its next pass: a real crawl of a test-web site is
scored, a classifier is promoted, and the next pass's ``kept`` follows the classifier; after a
rollback the filter decides again. A stored model that is not data is refused."""
import base64
import pickle

import pytest
from django.utils import timezone

from evaluation.models import CandidatePair
from evaluation.services import scoring
from training.learn.pair_classifier import CLASSIFIER_FEATURES, VERSION
from crawlweb.model_data import ModelDataError
from training.models import TrainedModel
from training.services.promoted import build, promoted
from training.services.promotion import roll_back
from tests.evaluation_integration.helpers import crawl_sites, pick_sites

pytestmark = pytest.mark.django_db(transaction=True)


def classifier_data(intercept: float) -> dict:
    """A pair classifier as data that answers the same for every pair: P = sigmoid(intercept)."""
    n = len(CLASSIFIER_FEATURES)
    return {"format": "pair-classifier", "version": VERSION, "feature_names": list(CLASSIFIER_FEATURES), "means": [0.0] * n,
            "scales": [1.0] * n, "coefficients": [0.0] * n, "intercept": intercept, "classes": [0, 1],
            "training": {"note": "test"}}


def promote_data(params: dict, version: int = 1) -> TrainedModel:
    return TrainedModel.objects.create(kind="pair_classifier", version=version, params=params, state="promoted",
                                       promoted_at=timezone.now())


@pytest.fixture
def scored_crawl(test_web_server, through_test_web, crawl_settings, settings):
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    site = pick_sites(test_web_server.web.truth(), [("bilingual-sr-en", "dirs")])
    return crawl_sites(site, budget=40)


def test_the_next_scoring_pass_decides_kept_with_the_promoted_classifier(scored_crawl):
    kept_by_filter = set(CandidatePair.objects.filter(crawl=scored_crawl, kept=True).values_list("id", flat=True))
    assert kept_by_filter, "the crawl should have pairs the filter keeps"
    promote_data(classifier_data(-10.0))  # says "not parallel" to every pair
    scoring.score_crawl(scored_crawl.pk)
    after = CandidatePair.objects.filter(pk__in=kept_by_filter)
    assert not any(p.kept for p in after)
    pair = after.first()
    assert pair.reason.startswith("pair classifier v1: P(parallel) 0.00 (filter: kept")
    assert pair.scores["filter_kept"] is True and pair.scores["classifier_version"] == 1
    roll_back("pair_classifier")
    scoring.score_crawl(scored_crawl.pk)
    assert set(CandidatePair.objects.filter(crawl=scored_crawl, kept=True).values_list("id", flat=True)) == kept_by_filter


def test_a_stored_pickle_or_foreign_key_is_refused_and_the_filter_stays(db):
    row = promote_data({"format": "pair-classifier", "version": VERSION, "pickle": pickle.dumps({}).hex()})
    with pytest.raises(ModelDataError, match="missing key"):
        build(row)
    assert promoted("pair_classifier") is None  # logged; scoring keeps the filter
    TrainedModel.objects.filter(pk=row.pk).update(params={**classifier_data(1.0), "__reduce__": "os.system"})
    with pytest.raises(ModelDataError, match="unexpected key.*__reduce__"):
        build(TrainedModel.objects.get(pk=row.pk))
    TrainedModel.objects.filter(pk=row.pk).update(params=base64.b64encode(pickle.dumps(classifier_data(1.0))).decode())
    with pytest.raises(ModelDataError, match="not JSON data"):
        build(TrainedModel.objects.get(pk=row.pk))
    TrainedModel.objects.filter(pk=row.pk).update(params=classifier_data(1.0))
    assert promoted("pair_classifier")[0] == 1
