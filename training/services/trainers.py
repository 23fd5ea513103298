"""One trainer per kind: gather the judged examples, train a new version on all of them, and compare
it by cross-validation with the current one (training.learn.comparison) on the same judged items.

Each returns an Outcome: the new model's data and the comparison, or why nothing was trained
(too few judged examples: the kind is skipped, nothing is stored).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from django.conf import settings
from sklearn.metrics import roc_auc_score

from frontier.classifiers.switcher_examples import switcher_examples
from frontier.discovery_settings import DiscoverySettings
from training.learn.comparison import compare, compare_scores
from frontier.classifiers.link_model import LinkModel
from training.learn.pair_classifier import MIN_PER_LABEL, PairClassifier
from training.learn.threshold import choose_threshold, threshold_data
from training.models import TrainedModel
from training.services.promoted import detector_min_likelihood, link_predictor, promoted
from training.services.judged import judged_links, judged_pairs, judged_sites

MIN_JUDGED_PER_LABEL = 5  # pairs and links: fewer of one label and the folds have nothing to learn it from


@dataclass
class Outcome:
    kind: str
    params: dict | None = None
    metrics: dict = field(default_factory=dict)
    trained_on: dict = field(default_factory=dict)
    skipped: str = ""

    @property
    def promote(self) -> bool:
        return bool(self.metrics.get("promote"))


def _counts(labels) -> dict:
    y = np.asarray(labels, dtype=int)
    return {"total": int(len(y)), "positive": int(y.sum()), "negative": int(len(y) - y.sum())}


def _too_few(kind: str, labels, minimum: int, among: str = "") -> Outcome | None:
    counts = _counts(labels)
    if min(counts["positive"], counts["negative"]) < minimum:
        return Outcome(kind, trained_on=counts, skipped=(
            f"{among}{counts['positive']} judged yes and {counts['negative']} judged no among improve evaluations; "
            f"estimate evaluations measure precision and never train; training needs {minimum} of each"))
    return None


def _promotion_needs_more(metrics: dict, counts: dict) -> dict:
    """``metrics`` with promotion refused when one answer has fewer than TRAIN_PROMOTE_MIN_PER_LABEL
    judged items: on 38 judged pairs, 8 of them no (all language switches), a classifier learned
    "a switch pair is not parallel", passed cross-validation and kept none of a new crawl's pairs."""
    minimum = settings.TRAIN_PROMOTE_MIN_PER_LABEL
    if metrics.get("promote") and min(counts["positive"], counts["negative"]) < minimum:
        return {**metrics, "promote": False,
                "too_few_to_promote": f"{counts['positive']} judged yes and {counts['negative']} judged no; "
                                      f"promotion needs {minimum} of each"}
    return metrics


def train_pair_classifier(seed: int = 0) -> Outcome:
    """The classifier is a second opinion on the filter's kept pairs (training.learn.pair_classifier):
    trained on the judged pairs the filter kept, it decides as the filter's kept minus those it finds not
    parallel, and is compared so.

    The method's filter never leaves the comparison. The new version is first compared with the
    filter, by folds that keep each site whole (training.learn.comparison): it must not be worse on
    sites it was not trained on. When it is worse, a promoted classifier gives way to the filter too:
    it was trained the same way on fewer pairs, and its own score on the judged pairs is no evidence,
    since it was trained on them. In bench/learning.py a classifier promoted on 100 judged pairs and
    compared only by its own score on them stayed promoted while it kept 0.803 of the held-out sites'
    pairs right where the filter keeps 0.885. Only a new version at least as good as the filter is
    compared with the promoted one (as it stands: a conservative comparison)."""
    kind = TrainedModel.Kind.PAIR_CLASSIFIER
    judged = judged_pairs()
    if (skip := _too_few(kind, judged.labels, MIN_JUDGED_PER_LABEL)) is not None:
        return skip
    X, y, baseline = np.asarray(judged.features), np.asarray(judged.labels), np.asarray(judged.filter_kept)
    reviewed = np.flatnonzero(baseline == 1)  # what the second opinion is trained on
    if (skip := _too_few(kind, y[reviewed], MIN_JUDGED_PER_LABEL, "of the pairs the filter kept, ")) is not None:
        return skip
    current = promoted(kind)

    fold_predictions: dict[bytes, np.ndarray] = {}  # the same folds each comparison: each trained once

    def fit_predict(train, test):
        key = test.tobytes()
        if key not in fold_predictions:
            kept = train[baseline[train] == 1]
            if np.bincount(y[kept], minlength=2).min() < MIN_PER_LABEL:
                fold_predictions[key] = baseline[test]  # nothing to learn a removal from: the filter's verdicts
            else:
                fold_predictions[key] = PairClassifier.train(X[kept], y[kept], seed=seed).keeps(X[test], baseline[test])
        return fold_predictions[key]

    comparison = compare(y, fit_predict, lambda test: baseline[test], seed=seed, groups=judged.sites)
    metrics = {**comparison.as_dict(), "current": "the method's filter"}
    if current is not None:
        metrics["filter_mean"] = comparison.current_mean
        if not comparison.promote:
            unseen = "sites" if comparison.grouped else "pairs"
            metrics["retire_current"] = (f"classifiers trained on the judged pairs measure {comparison.new_mean:.3f} on "
                                         f"{unseen} they were not trained on, the method's filter "
                                         f"{comparison.current_mean:.3f} ({len(y)} judged pairs)")
        else:
            against_current = compare(y, fit_predict, lambda test: current[1].keeps(X[test], baseline[test]),
                                      seed=seed, groups=judged.sites)
            if against_current.current_mean > comparison.current_mean:
                metrics = {**against_current.as_dict(), "current": f"v{current[0]}",
                           "filter_mean": comparison.current_mean}
    model = PairClassifier.train(X[reviewed], y[reviewed], seed=seed)
    counts = _counts(y[reviewed])
    model.training.update(n_negative=counts["negative"], min_per_label=MIN_PER_LABEL, judged_pairs=int(len(y)))
    return Outcome(kind, model.to_data(), _promotion_needs_more(metrics, counts), counts)


def _link_training_set(links, labels, seed):
    """Judged links plus the switcher conventions on their pages (what the shipped model starts from),
    so a few hundred judged links refine the conventions rather than replace them."""
    extra, extra_labels = switcher_examples(sorted({link.page_url for link in links}), seed=seed)
    return list(links) + extra, list(labels) + extra_labels


def train_link_predictor(seed: int = 0) -> Outcome:
    """Compared as the detector uses it (training.learn.comparison.compare_scores): ranking of the
    judged links (AUC) and F1 at the detector's threshold, both not worse, with folds that keep each
    site whole (a site's links share its switch and its way of naming pages)."""
    kind = TrainedModel.Kind.LINK_PREDICTOR
    judged = judged_links()
    if (skip := _too_few(kind, judged.labels, MIN_JUDGED_PER_LABEL)) is not None:
        return skip
    links, y = judged.links, np.asarray(judged.labels)
    current = link_predictor()
    threshold = detector_min_likelihood(None, DiscoverySettings().min_likelihood)

    def fit_score(train, test):
        model = LinkModel.train(*_link_training_set([links[i] for i in train], y[train], seed), seed=seed)
        return model.predict_proba([links[i] for i in test])

    def score_current(test):
        return current.predict_proba([links[i] for i in test])

    comparison = compare_scores(y, fit_score, score_current, threshold=threshold, seed=seed, groups=judged.sites)
    model = LinkModel.train(*_link_training_set(links, y, seed), seed=seed)
    model.training.update(judged_links=int(len(y)), judged_translation_links=int(y.sum()))
    found = promoted(kind)
    metrics = {**comparison.as_dict(), "current": f"v{found[0]}" if found else "the shipped model",
               "current_auc_on_judged": float(roc_auc_score(y, current.predict_proba(links)))}
    return Outcome(kind, model.to_data(), _promotion_needs_more(metrics, _counts(y)), _counts(y))


def train_detector_threshold(seed: int = 0) -> Outcome:
    kind = TrainedModel.Kind.DETECTOR_THRESHOLD
    judged = judged_sites()
    minimum = settings.TRAIN_MIN_SITES
    s, y = np.asarray(judged.scores, dtype=float), np.asarray(judged.labels, dtype=int)
    if len(y) < minimum or len(set(y.tolist())) < 2:
        return Outcome(kind, trained_on=_counts(y), skipped=f"{len(y)} judged sites with link scores (need "
                                                              f"{minimum}, both answers): the threshold stays")
    found = promoted(kind)
    current = found[1] if found is not None else DiscoverySettings().min_likelihood

    def fit_predict(train, test):
        return (s[test] >= choose_threshold(s[train], y[train], current, min_sites=2).threshold).astype(int)

    comparison = compare(y, fit_predict, lambda test: (s[test] >= current).astype(int), seed=seed)
    choice = choose_threshold(s, y, current, min_sites=minimum)
    metrics = {**comparison.as_dict(), "current": f"v{found[0]} ({current})" if found else f"the default ({current})",
               "chosen": choice.threshold, "reason": choice.reason}
    return Outcome(kind, threshold_data(choice, {"n_sites": int(len(y)), "f1": choice.f1}), metrics, _counts(y))


TRAINERS = (train_pair_classifier, train_link_predictor, train_detector_threshold)
