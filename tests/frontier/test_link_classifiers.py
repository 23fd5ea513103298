"""Backlink / Forward-Link classifiers: Naive Bayes over four link contexts (Barbosa et al. 2011, Sec. 2.2)."""
from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import numpy as np
import pytest

from frontier.classifiers.link_classifier import (
    PICKLED_MAGIC,
    PRIMARY,
    RESERVE,
    SECONDARY,
    LinkClassifier,
    LinkNeighborhood,
    ModelBytesError,
    context_weights,
    layer_for_probability,
    neighborhood_features,
)
from frontier.classifiers.text_normalize import Normalizer, stopwords


def test_features_keep_the_four_contexts_apart_and_the_host_unstemmed():
    n = LinkNeighborhood(
        url="http://hoteli.example.rs/smestaj/hotels.html",
        anchor_text="Hotels in Serbia",
        text_around="the best hotel deals",
    )
    feats = neighborhood_features(n, Normalizer(("sr", "en")))
    assert {"host:hoteli", "host:rs", "path:smesta", "path:hotel", "anchor:hotel", "around:hotel"} <= set(feats)
    assert not any(f.endswith(":the") or f.endswith(":in") for f in feats)  # stop words removed
    assert not any(f.startswith("path:example") for f in feats)  # the host is not part of the URL context


def test_each_context_gets_one_vote_however_many_words_it_has():
    n = LinkNeighborhood("http://www.vila.rs/en/", "Vila", "Hotel Jadran Kafana Pekara Apoteka Radio Muzej Galerija")
    weights = context_weights(neighborhood_features(n, Normalizer(("sr", "en"))))
    for context in ("path", "host", "anchor", "around"):
        assert sum(w for k, w in weights.items() if k.startswith(context + ":")) == pytest.approx(1.0)
    assert weights["path:en"] == 1.0 and weights["around:hotel"] < 0.2


def _listed_links(rng: random.Random, n: int):
    """Links from lists of sites: only the URL tells (a language folder), while the text around
    each link is ten names of its neighbours in the list, as on real link pages."""
    names = [f"sajt{i}" for i in range(60)]
    links, labels = [], []
    for i in range(n):
        label = int(rng.random() < 0.5)
        url = f"http://www.{rng.choice(names)}x{i}.rs/" + (rng.choice(["en/", "english/", "?lang=en"]) if label else "")
        links.append(LinkNeighborhood(url, rng.choice(names), " ".join(rng.sample(names, 10))))
        labels.append(label)
    return links, np.array(labels)


def test_the_words_around_a_link_do_not_drown_its_url():
    from sklearn.metrics import roc_auc_score

    rng = random.Random(0)
    train, train_labels = _listed_links(rng, 40)
    test, test_labels = _listed_links(rng, 200)
    voted = roc_auc_score(test_labels, LinkClassifier.train(train, train_labels).predict_proba(test))
    counted = roc_auc_score(test_labels, LinkClassifier.train(train, train_labels, weighting="counts")
                            .predict_proba(test))
    assert voted > 0.95 and voted > counted + 0.05


def test_latin_and_cyrillic_serbian_words_stem_to_the_same_feature():
    normalize = Normalizer(("sr", "en"))
    assert normalize(["smeštaj"]) == normalize(["смештај"])
    assert normalize(["hoteli"]) == normalize(["hotels"]) == ["hotel"]


def test_stop_word_lists_cover_english_and_both_serbian_scripts():
    assert {"the", "and", "of"} <= stopwords("en")
    assert {"i", "je", "kao", "и", "је", "као", "његов"} <= stopwords("sr")


def test_a_language_without_stop_words_or_stemmer_is_named_in_the_error():
    with pytest.raises(FileNotFoundError, match="'xx'"):
        Normalizer(("sr", "xx"))


def _crawl_links(rng: random.Random, n: int):
    """Links from a crawl: those that led to bilingual sites share words in some contexts."""
    good_hosts = ["hotel-beograd.rs", "turizam.co.rs", "vinarija.rs", "prevodi.rs"]
    bad_hosts = ["shop.example.com", "news.example.org", "forum.example.net", "games.example.io"]
    good_words = ["english", "srpski", "hotel", "smeštaj", "tourism", "prevod", "accommodation"]
    bad_words = ["cart", "login", "forum", "cheap", "download", "casino", "thread"]
    common = ["page", "more", "home", "info", "link", "click"]
    links, labels = [], []
    for _ in range(n):
        label = int(rng.random() < 0.4)
        hosts, pool = (good_hosts, good_words) if label else (bad_hosts, bad_words)
        # noisy contexts: one word in three comes from the other class or the common pool
        def text(k):
            return " ".join(
                rng.choice(pool if rng.random() < 0.6 else (good_words + bad_words + common)) for _ in range(k)
            )
        links.append(
            LinkNeighborhood(
                url=f"http://{rng.choice(hosts)}/{text(2).replace(' ', '-')}.html",
                anchor_text=text(2),
                text_around=text(6),
            )
        )
        labels.append(label)
    return links, np.array(labels)


def test_classifier_learns_from_crawl_links_and_beats_chance_on_new_links():
    rng = random.Random(7)
    train_links, train_labels = _crawl_links(rng, 300)
    test_links, test_labels = _crawl_links(rng, 200)
    model = LinkClassifier.train(train_links, train_labels)
    p = model.predict_proba(test_links)
    assert p.shape == (200,) and p.min() >= 0.0 and p.max() <= 1.0
    accuracy = ((p >= 0.5) == test_labels).mean()
    majority = max(test_labels.mean(), 1 - test_labels.mean())
    assert accuracy > majority + 0.15


def test_a_link_with_the_relevant_words_scores_higher_than_one_without():
    rng = random.Random(3)
    model = LinkClassifier.train(*_crawl_links(rng, 300))
    good = LinkNeighborhood("http://vila.rs/smestaj.html", "Smeštaj / Accommodation", "english srpski")
    bad = LinkNeighborhood("http://forum.example.net/thread-123", "Login", "cheap casino download")
    p_good, p_bad = model.predict_proba([good, bad])
    assert p_good > 0.8 and p_bad < 0.2


def test_stored_bytes_give_back_the_same_classifier():
    rng = random.Random(1)
    links, labels = _crawl_links(rng, 120)
    model = LinkClassifier.train(links, labels)
    data = model.to_bytes()
    assert isinstance(data, bytes)
    again = LinkClassifier.from_bytes(data)
    assert np.array_equal(again.predict_proba(links), model.predict_proba(links))
    assert again.pair == ("sr", "en")


def test_stored_bytes_are_json_data_and_keep_the_weighting():
    model = LinkClassifier.train(*_crawl_links(random.Random(1), 120), weighting="counts")
    data = json.loads(model.to_bytes())
    assert data["format"] == "link-classifier-data" and data["weighting"] == "counts"
    again = LinkClassifier.from_bytes(memoryview(model.to_bytes()))  # what a BinaryField gives back
    links = _crawl_links(random.Random(2), 20)[0]
    assert again.weighting == "counts"
    assert np.array_equal(again.predict_proba(links), model.predict_proba(links))


class _Trap:
    """Unpickling it would create a file: the proof that loading ran code."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (Path.touch, (Path(self.path),))


def test_a_pickled_classifier_is_refused_without_being_run(tmp_path):
    ran = tmp_path / "ran"
    for data in (PICKLED_MAGIC + (1).to_bytes(2, "big") + pickle.dumps(_Trap(str(ran))), pickle.dumps(_Trap(str(ran)))):
        with pytest.raises(ModelBytesError, match="pickle|binary, not JSON"):
            LinkClassifier.from_bytes(data)
    assert not ran.exists()


def test_bytes_of_another_version_or_kind_are_refused():
    rng = random.Random(1)
    data = json.loads(LinkClassifier.train(*_crawl_links(rng, 60)).to_bytes())
    with pytest.raises(ModelBytesError, match="version 99"):
        LinkClassifier.from_bytes(json.dumps({**data, "version": 99}).encode())
    with pytest.raises(ModelBytesError, match="unexpected key.*code"):
        LinkClassifier.from_bytes(json.dumps({**data, "code": "import os"}).encode())
    with pytest.raises(ModelBytesError, match="do not fit together"):
        LinkClassifier.from_bytes(json.dumps({**data, "vocabulary": data["vocabulary"][:-1]}).encode())
    with pytest.raises(ModelBytesError, match="not JSON data"):
        LinkClassifier.from_bytes(json.dumps(data).encode()[:40])
    with pytest.raises(ModelBytesError, match="binary, not JSON"):
        LinkClassifier.from_bytes(b"PK\x03\x04\xff something else")


def test_training_needs_both_labels_and_one_label_per_link():
    links = [LinkNeighborhood("http://a.rs/"), LinkNeighborhood("http://b.rs/")]
    with pytest.raises(ValueError, match="both labels"):
        LinkClassifier.train(links, [0, 0])
    with pytest.raises(ValueError, match="2 neighborhoods but 3 labels"):
        LinkClassifier.train(links, [0, 1, 1])
    with pytest.raises(ValueError, match="non-empty url"):
        LinkNeighborhood("")


@pytest.mark.parametrize(
    "p, layer", [(1.0, PRIMARY), (0.8, PRIMARY), (0.79, SECONDARY), (0.5, SECONDARY), (0.49, RESERVE), (0.0, RESERVE)]
)
def test_probability_maps_to_primary_secondary_or_reserve_layer(p, layer):
    assert layer_for_probability(p) == layer


def test_layer_thresholds_are_parameters():
    assert layer_for_probability(0.7, primary=0.6, secondary=0.3) == PRIMARY
    assert layer_for_probability(0.4, primary=0.6, secondary=0.3) == SECONDARY
    assert layer_for_probability(0.2, primary=0.6, secondary=0.3) == RESERVE


def test_bad_probability_or_thresholds_are_refused():
    with pytest.raises(ValueError, match="probability"):
        layer_for_probability(1.5)
    with pytest.raises(ValueError, match="probability"):
        layer_for_probability(float("nan"))
    with pytest.raises(ValueError, match="secondary <= primary"):
        layer_for_probability(0.5, primary=0.3, secondary=0.6)
