"""Stored models are data: exact schemas, and anything else (a pickle, an extra key) is refused."""
import json
import pickle

import numpy as np
import pytest

from frontier.classifiers.link_features import LinkContext
from training.learn.features import FEATURE_NAMES, pair_features
from frontier.classifiers.link_model import LinkModel
from crawlweb.model_data import ModelDataError
from training.learn.pair_classifier import CLASSIFIER_FEATURES, VERSION, PairClassifier
from training.learn.threshold import ThresholdChoice, threshold_data, threshold_from_data


def trained_pair_classifier() -> PairClassifier:
    rng = np.random.default_rng(3)
    X = rng.random((40, len(FEATURE_NAMES)))
    y = (X[:, 0] > 0.5).astype(int)
    return PairClassifier.train(X, y)


def test_a_pair_classifier_comes_back_from_its_json_with_the_same_probabilities():
    model = trained_pair_classifier()
    text = json.dumps(model.to_data())
    again = PairClassifier.from_data(text)
    X = np.random.default_rng(4).random((10, len(FEATURE_NAMES)))
    assert np.allclose(model.probability(X), again.probability(X))
    assert again.feature_names == CLASSIFIER_FEATURES


def test_the_second_opinion_keeps_only_pairs_the_filter_kept_and_it_finds_parallel():
    model = trained_pair_classifier()  # parallel when the first feature (similarity) is above 0.5
    X = np.full((4, len(FEATURE_NAMES)), 0.5)  # the other features at their training mean: noise only
    X[:, 0] = [0.9, 0.9, 0.1, 0.1]
    assert model.keeps(X, [1, 0, 1, 0]).tolist() == [1, 0, 0, 0]
    assert model.keeps(np.zeros((0, len(FEATURE_NAMES))), []).tolist() == []


def test_a_classifier_stored_by_the_earlier_version_is_refused_with_a_reason():
    stored = {**trained_pair_classifier().to_data(), "version": 1, "feature_names": list(FEATURE_NAMES)}
    with pytest.raises(ModelDataError, match=f"has version 1; this code reads {VERSION}"):
        PairClassifier.from_data(stored)
    with pytest.raises(ModelDataError, match="feature names are not this code's features.*train it again"):
        PairClassifier.from_data({**stored, "version": VERSION})
    before_alignment = [name for name in CLASSIFIER_FEATURES if name != "alignment_score"]
    with pytest.raises(ModelDataError, match="has version 2; this code reads"):
        PairClassifier.from_data({**stored, "version": 2, "feature_names": before_alignment})


def test_a_pickled_model_is_refused():
    model = trained_pair_classifier()
    with pytest.raises(ModelDataError, match="binary, not JSON"):
        PairClassifier.from_data(pickle.dumps(model.pipeline))
    with pytest.raises(ModelDataError, match="binary, not JSON"):
        PairClassifier.from_data(pickle.dumps(model.to_data()))


def test_an_unexpected_key_or_type_is_refused_by_name():
    data = trained_pair_classifier().to_data()
    with pytest.raises(ModelDataError, match="unexpected key.*loader"):
        PairClassifier.from_data({**data, "loader": "os.system"})
    with pytest.raises(ModelDataError, match=r"pair-classifier\.intercept: expected a finite number, got str"):
        PairClassifier.from_data({**data, "intercept": "0.5"})
    with pytest.raises(ModelDataError, match=r"coefficients\[2\]: expected a finite number"):
        PairClassifier.from_data({**data, "coefficients": data["coefficients"][:2] + [None] + data["coefficients"][3:]})
    with pytest.raises(ModelDataError, match="missing key.*means"):
        PairClassifier.from_data({k: v for k, v in data.items() if k != "means"})
    with pytest.raises(ModelDataError, match="not JSON data"):
        PairClassifier.from_data(json.dumps(data).replace(str(data["intercept"]), "NaN", 1))
    with pytest.raises(ModelDataError, match="expected 'pair-classifier'"):
        PairClassifier.from_data({**data, "format": "link-predictor-data"})
    with pytest.raises(ModelDataError, match="training.*nested"):
        PairClassifier.from_data({**data, "training": {"nested": {"a": 1}}})


def test_a_model_of_other_features_is_refused():
    data = trained_pair_classifier().to_data()
    data["feature_names"] = data["feature_names"][::-1]
    with pytest.raises(ModelDataError, match="feature names"):
        PairClassifier.from_data(data)


def links_and_labels():
    links, labels = [], []
    for i in range(12):
        page = f"http://site{i}.rs/sr/page{i}.html"
        links.append(LinkContext(f"http://site{i}.rs/en/page{i}.html", "English", page_url=page))
        labels.append(1)
        links.append(LinkContext(f"http://site{i}.rs/sr/other{i}.html", f"Vesti {i}", page_url=page))
        labels.append(0)
    return links, labels


def test_a_link_model_from_data_scores_exactly_as_the_calibrated_svm():
    from frontier.classifiers.link_predictor import LinkPredictor

    links, labels = links_and_labels()
    predictor = LinkPredictor.train(links, labels, seed=1)
    model = LinkModel.from_predictor(predictor)
    again = LinkModel.from_data(json.dumps(model.to_data()))
    probe = [LinkContext("http://new.rs/en/x.html", "English", page_url="http://new.rs/sr/x.html"),
             LinkContext("http://new.rs/sr/y.html", "Kontakt", page_url="http://new.rs/sr/x.html")]
    assert np.allclose(again.predict_proba(probe), predictor.predict_proba(probe))
    assert again.predict_proba(probe)[0] > again.predict_proba(probe)[1]


def test_a_link_model_with_a_wrong_weight_count_is_refused():
    links, labels = links_and_labels()
    data = LinkModel.train(links, labels).to_data()
    data["folds"][0]["weights"] = data["folds"][0]["weights"][:-1]
    with pytest.raises(ModelDataError, match=r"folds\[0\]\.weights"):
        LinkModel.from_data(data)
    with pytest.raises(ModelDataError, match="binary"):
        LinkModel.from_data(pickle.dumps(data))


def test_a_threshold_is_data_in_range():
    data = threshold_data(ThresholdChoice(0.4, 0.9, False, "x"), {"n_sites": 30})
    assert threshold_from_data(json.dumps(data)) == 0.4
    with pytest.raises(ModelDataError, match="outside"):
        threshold_from_data({**data, "min_likelihood": 1.5})


def test_pair_features_name_every_value_and_flag_what_is_missing():
    stored = {"similarity": 0.4, "sim_same": 0.2, "sim_pattern": 0.6, "scores": {"length_ratio": 2.0, "dp": 0.1,
              "structure_checked": True}, "score": 0.7, "method": "local", "methods": ["local", "deep"],
              "has_pattern": True, "languages_confirmed": True, "source_language": "sr-Cyrl", "target_language": "en"}
    named = dict(zip(FEATURE_NAMES, pair_features(stored, site_credibility=0.5)))
    assert named["similarity"] == 0.4 and named["similarity_missing"] == 0
    assert named["length_log_ratio"] == pytest.approx(np.log(2.0))
    assert named["strand_dp"] == 0.1 and named["strand_missing"] == 0
    assert named["method_local"] == named["method_deep"] == 1 and named["method_hreflang"] == 0
    assert named["methods_count"] == 2 and named["source_cyrillic"] == 1 and named["target_cyrillic"] == 0
    assert named["site_credibility"] == 0.5 and named["site_credibility_missing"] == 0
    bare = dict(zip(FEATURE_NAMES, pair_features({"method": "hreflang", "similarity": None, "scores": {}})))
    assert bare["similarity_missing"] == bare["strand_missing"] == bare["length_ratio_missing"] == 1
    assert bare["site_credibility_missing"] == 1


def test_pair_features_compare_the_two_pages_texts():
    translated = {"source_text": "Dobrodošli u naš hotel u Kotoru, 12 soba od 2019.",
                  "target_text": "Welcome to our hotel in Kotor, 12 rooms since 2019."}
    untranslated = {"source_text": "Meni Kontakt. Welcome to our hotel in Kotor, 12 rooms since 2019.",
                    "target_text": "Menu Contact. Welcome to our hotel in Kotor, 12 rooms since 2019."}
    said = {name: dict(zip(FEATURE_NAMES, pair_features({**pair, "scores": {}})))
            for name, pair in (("translated", translated), ("untranslated", untranslated))}
    assert said["translated"]["shared_word_share"] < 0.2 < said["untranslated"]["shared_word_share"]
    assert said["translated"]["shared_words_log"] < said["untranslated"]["shared_words_log"]
    assert said["translated"]["shared_number_share"] == said["untranslated"]["shared_number_share"] == 1.0
    assert said["translated"]["texts_missing"] == 0
    one_side = dict(zip(FEATURE_NAMES, pair_features({"source_text": "Dobrodošli", "scores": {}})))
    assert one_side["texts_missing"] == 1 and one_side["shared_word_share"] == 0


def test_a_stored_pair_classifier_of_other_features_is_refused():
    data = trained_pair_classifier().to_data()
    older = {**data, "feature_names": data["feature_names"][:-5], "means": data["means"][:-5],
             "scales": data["scales"][:-5], "coefficients": data["coefficients"][:-5]}
    with pytest.raises(ModelDataError, match="train it again"):
        PairClassifier.from_data(older)
