"""The promoted model of each kind, as the crawl and the scoring use it "from their next step".

Each lookup asks the database which version is promoted (one indexed query) and rebuilds the model
from its data only when that changed, so a promotion or a rollback takes effect at the next scoring
pass or detector job without a restart, in every worker. With nothing promoted (or a stored model
that fails its schema check, which is logged) the callers keep their defaults: the method's filter
decides ``kept``, the shipped Link Predictor scores links, the detector keeps its threshold.
"""
from __future__ import annotations

import logging
import threading

from frontier.classifiers.shipped_link_predictor import default_link_predictor
from training.learn.features import filter_kept_after_one_to_one, filter_said_keep, pair_features
from evaluation.lexicon_in_use import lexicon_in_use
from frontier.classifiers.link_model import LinkModel
from crawlweb.model_data import ModelDataError
from evaluation.bodies.page_body import SiteLines
from training.learn.pair_classifier import KEEP_AT, PairClassifier
from training.learn.threshold import threshold_from_data
from training.models import TrainedModel

log = logging.getLogger(__name__)
Kind = TrainedModel.Kind
BUILDERS = {Kind.PAIR_CLASSIFIER: PairClassifier.from_data, Kind.LINK_PREDICTOR: LinkModel.from_data,
            Kind.DETECTOR_THRESHOLD: threshold_from_data}
_built: dict[str, tuple[int, int, object]] = {}  # kind → (row id, version, model)
_lock = threading.Lock()


def build(row: TrainedModel):
    """The model of a stored row, from its data (ModelDataError when it is not exactly that)."""
    return BUILDERS[row.kind](row.params)


def promoted(kind: str) -> tuple[int, object] | None:
    """(version, model) of the promoted model of ``kind``, or None."""
    row = TrainedModel.objects.filter(kind=kind, state=TrainedModel.State.PROMOTED).values("id", "version").first()
    if row is None:
        return None
    cached = _built.get(kind)
    if cached is None or cached[0] != row["id"]:
        try:
            model = build(TrainedModel.objects.get(pk=row["id"]))
        except (ModelDataError, TrainedModel.DoesNotExist) as exc:
            log.error("promoted %s v%s is not usable, the default is used: %s", kind, row["version"], exc)
            return None
        with _lock:
            _built[kind] = cached = (row["id"], row["version"], model)
    return cached[1], cached[2]


class PairDecider:
    """Decides ``kept`` of a site's stored CandidatePairs with the promoted classifier, a second opinion
    on the filter (training.learn.pair_classifier): every pair the filter has read gets P(parallel); a
    pair the filter kept (after scoring's one-to-one choice) stays kept when P ≥ KEEP_AT (0.5), and no other pair
    is kept.

    The filter's own verdict stays in ``scores["filter_kept"]`` and in the reason, so what the filter
    said can still be read (and used as the baseline when the classifier is rolled back)."""

    def __init__(self, version: int, classifier: PairClassifier, site_credibility: float | None):
        self.version, self.classifier, self.site_credibility = version, classifier, site_credibility

    def __call__(self, rows: list, site_lines: SiteLines | None = None) -> None:
        if not rows:
            return
        features = [pair_features(row, self.site_credibility, site_lines, lexicon_in_use(),
                                  needed=self.classifier.feature_names) for row in rows]
        for row, probability in zip(rows, self.classifier.probability(features)):
            probability = float(probability)
            filter_kept, filter_reason = filter_said_keep(row), row.reason
            row.kept = filter_kept_after_one_to_one(row) and probability >= KEEP_AT
            row.scores = {**(row.scores or {}), "filter_kept": filter_kept,
                          "classifier_probability": round(probability, 4), "classifier_version": self.version}
            row.reason = (f"pair classifier v{self.version}: P(parallel) {probability:.2f} "
                          f"(filter: {'kept' if filter_kept else 'removed'}, {filter_reason})")[:300]


def pair_deciders(crawl_id: int, site_ids: list[int]) -> dict[int, PairDecider] | None:
    """The promoted pair classifier for each of the sites' scoring, or None (the filter decides); one
    lookup of the promoted version and one read of the sites' credibility for all of them."""
    found = promoted(Kind.PAIR_CLASSIFIER)
    if found is None:
        return None
    from evaluation.models import SiteCredibility

    credibility = dict(SiteCredibility.objects.filter(crawl_id=crawl_id, site_id__in=list(site_ids))
                       .values_list("site_id", "credibility"))
    return {site_id: PairDecider(found[0], found[1], credibility.get(site_id)) for site_id in site_ids}


def link_predictor():
    """The promoted Link Predictor, else the shipped one (both have ``predict_proba(links)``)."""
    found = promoted(Kind.LINK_PREDICTOR)
    return found[1] if found is not None else default_link_predictor()


def detector_min_likelihood(crawl_config: dict | None, configured: float) -> float:
    """A crawl that sets ``detector.min_likelihood`` keeps it (``configured``, its parsed value);
    otherwise the promoted threshold, else ``configured`` (the default 0.8)."""
    detector = (crawl_config or {}).get("detector")
    if isinstance(detector, dict) and "min_likelihood" in detector:
        return configured
    found = promoted(Kind.DETECTOR_THRESHOLD)
    return found[1] if found is not None else configured


def pair_probabilities(ids: list[int]) -> dict[int, float]:
    """Uncertainty sampling of pairs with the promoted classifier (else the filter's similarity)."""
    from evaluation.models import CandidatePair, SiteCredibility
    from labeling.uncertainty import pair_similarity

    found = promoted(Kind.PAIR_CLASSIFIER)
    if found is None:
        return pair_similarity(ids)
    pairs = list(CandidatePair.objects.filter(pk__in=ids).select_related("source_page", "target_page").order_by("id"))
    if not pairs:
        return {}
    credibility = {(c, s): v for c, s, v in SiteCredibility.objects.filter(
        crawl_id__in={p.crawl_id for p in pairs}).values_list("crawl_id", "site_id", "credibility")}
    from training.services.site_lines import site_lines_of

    lines = site_lines_of(pairs)
    scores = found[1].probability([pair_features(p, credibility.get((p.crawl_id, p.site_id)), lines[p.pk],
                                                 lexicon_in_use(), needed=found[1].feature_names)
                                   for p in pairs])
    return {p.pk: float(s) for p, s in zip(pairs, scores)}


def link_probabilities(ids: list[int]) -> dict[int, float]:
    from labeling.uncertainty import link_probabilities_by

    return link_probabilities_by(link_predictor(), ids)


def register_uncertainty_sources() -> None:
    """Improve-purpose samples pick what the promoted models are least sure of."""
    from labeling.uncertainty import register_probability_source

    register_probability_source("pairs", pair_probabilities)
    register_probability_source("links", link_probabilities)
