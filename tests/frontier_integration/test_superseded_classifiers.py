"""A worker keeps only each queue's latest link classifier: a superseded model is freed, not held.

COBFC retrains every learning interval, so a long crawl stores many versions; a worker that kept
every one it had loaded grew with the crawl (its vectorizer's vocabulary, its word cache)."""
import gc
import weakref

import pytest

from crawlweb.models import Crawl
from frontier.classifiers.link_classifier import LinkClassifier, LinkNeighborhood
from frontier.discovery_settings import DiscoverySettings
from frontier.learning import ClassifierSet
from frontier.models import ClassifierModel

pytestmark = pytest.mark.django_db

FORWARD = ClassifierModel.Kind.FORWARD


def _store(crawl, version: int) -> None:
    links = [LinkNeighborhood(f"http://vila{version}.rs/en/", "English"),
             LinkNeighborhood(f"http://casino{version}.example.net/", "Win")]
    ClassifierModel.objects.create(crawl=crawl, kind=FORWARD, version=version,
                                   bytes=LinkClassifier.train(links, [1, 0]).to_bytes())


def test_each_retraining_frees_the_model_it_supersedes():
    crawl = Crawl.objects.create(name="retrained")
    held = []
    for version in range(1, 5):
        _store(crawl, version)
        model = ClassifierSet.latest(crawl, DiscoverySettings()).models[FORWARD]
        assert model is ClassifierSet.latest(crawl, DiscoverySettings()).models[FORWARD], "loaded once"
        assert "host:vila%d" % version in " ".join(model.vectorizer.feature_names_), "the newest version"
        held.append(weakref.ref(model))
        del model
    gc.collect()
    assert [ref() is not None for ref in held] == [False, False, False, True]


def test_two_crawls_keep_their_own_latest_models():
    first, second = Crawl.objects.create(name="first"), Crawl.objects.create(name="second")
    _store(first, 1)
    _store(second, 1)
    _store(second, 2)
    models = {crawl.name: ClassifierSet.latest(crawl, DiscoverySettings()).models[FORWARD] for crawl in (first, second)}
    assert "host:vila1" in " ".join(models["first"].vectorizer.feature_names_)
    assert "host:vila2" in " ".join(models["second"].vectorizer.feature_names_)
    assert ClassifierSet.latest(first, DiscoverySettings()).models[FORWARD] is models["first"]
