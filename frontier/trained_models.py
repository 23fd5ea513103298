"""The trained models the frontier uses, as the training floor (above it) provides them.

training/apps.py plugs its promoted-model lookups in at start-up (training/services/promoted.py: the promoted
Link Predictor and detector threshold, looked up at each call, so a promotion or a rollback counts
from the next detector job). Until then, or without the training app, the frontier keeps its
defaults: the shipped Link Predictor and the detector threshold the crawl is configured with. The
hook runs this way round because a floor imports only the floors below it.
"""
from __future__ import annotations

from collections.abc import Callable

from frontier.classifiers.shipped_link_predictor import default_link_predictor


def _configured_threshold(crawl_config: dict | None, configured: float) -> float:
    return configured


_link_predictor: Callable[[], object] = default_link_predictor
_detector_min_likelihood: Callable[[dict | None, float], float] = _configured_threshold


def provide(link_predictor: Callable[[], object], detector_min_likelihood: Callable[[dict | None, float], float]) -> None:
    """Called by the training app's ready(): where the two lookups below get their models."""
    global _link_predictor, _detector_min_likelihood
    _link_predictor, _detector_min_likelihood = link_predictor, detector_min_likelihood


def link_predictor():
    """The Link Predictor to score links with (``predict_proba(links)``): the promoted one, else the shipped one."""
    return _link_predictor()


def detector_min_likelihood(crawl_config: dict | None, configured: float) -> float:
    """The BS Detector's minimum link likelihood: the crawl's own, else the promoted threshold, else ``configured``."""
    return _detector_min_likelihood(crawl_config, configured)
