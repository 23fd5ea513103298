"""A stored classifier row that is a pickle is refused, logged, and never run; the crawl goes on."""
import logging
import pickle
from pathlib import Path

import pytest

from crawlweb.models import Crawl
from frontier.classifiers.link_classifier import PICKLED_MAGIC, LinkClassifier, LinkNeighborhood
from frontier.learning import ClassifierSet
from frontier.models import ClassifierModel
from frontier.discovery_settings import DiscoverySettings

pytestmark = pytest.mark.django_db


class _Trap:
    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (Path.touch, (Path(self.path),))


def test_a_pickled_classifier_row_is_refused_and_a_data_row_is_used(tmp_path, caplog):
    crawl = Crawl.objects.create(name="learning")
    ran = tmp_path / "ran"
    ClassifierModel.objects.create(crawl=crawl, kind=ClassifierModel.Kind.BACKLINK, version=1,
                                   bytes=PICKLED_MAGIC + (1).to_bytes(2, "big") + pickle.dumps(_Trap(str(ran))))
    links = [LinkNeighborhood("http://vila.rs/en/", "English"), LinkNeighborhood("http://casino.example.net/", "Win")]
    good = LinkClassifier.train(links, [1, 0])
    ClassifierModel.objects.create(crawl=crawl, kind=ClassifierModel.Kind.FORWARD, version=1, bytes=good.to_bytes())
    with caplog.at_level(logging.ERROR, logger="frontier.learning"):
        classifiers = ClassifierSet.latest(crawl, DiscoverySettings())
    assert not ran.exists()
    assert set(classifiers.models) == {ClassifierModel.Kind.FORWARD}
    assert "backlink classifier" in caplog.text and "is a pickle" in caplog.text
    assert classifiers.priorities(ClassifierModel.Kind.BACKLINK, [object()]) == [0.0]  # no model: no priority
