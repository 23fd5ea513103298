"""The detector's minimum link likelihood (``detector.min_likelihood``) chosen from judged sites.

A judged site carries the detector's best link score on its page (SiteVerdict evidence) and the
evaluators' answer (bilingual in the crawl's pair or not). The detector reads the pages behind the
links scoring at least the threshold, so "score ≥ t" is the site's chance of being found bilingual:
t is the candidate threshold that maximizes F1 over the judged sites (ties: the higher one, which
costs fewer fetches). Below ``min_sites`` judged sites, or without both answers among them, the
default stays: a threshold fitted to a handful of sites would follow their noise.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from crawlweb.model_data import ModelDataError, flat_mapping, number, parse_model_data, register_format

CANDIDATES = tuple(round(0.05 * i, 2) for i in range(1, 20))  # 0.05 … 0.95
MIN_SITES = 20


@dataclass(frozen=True)
class ThresholdChoice:
    threshold: float
    f1: float
    default_kept: bool
    reason: str


def f1_at(scores: np.ndarray, labels: np.ndarray, threshold: float) -> float:
    predicted = scores >= threshold
    tp = int((predicted & (labels == 1)).sum())
    fp, fn = int((predicted & (labels == 0)).sum()), int((~predicted & (labels == 1)).sum())
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def best_threshold(scores: Sequence[float], labels: Sequence[int]) -> tuple[float, float]:
    s, y = np.asarray(scores, dtype=float), np.asarray(labels, dtype=int)
    best = max(CANDIDATES, key=lambda t: (f1_at(s, y, t), t))
    return best, f1_at(s, y, best)


def choose_threshold(scores: Sequence[float], labels: Sequence[int], default: float,
                     min_sites: int = MIN_SITES) -> ThresholdChoice:
    s, y = np.asarray(scores, dtype=float), np.asarray(labels, dtype=int)
    if len(s) != len(y):
        raise ValueError(f"{len(s)} scores but {len(y)} labels")
    if len(y) < min_sites or len(set(y.tolist())) < 2:
        return ThresholdChoice(default, f1_at(s, y, default), True,
                               f"{len(y)} judged sites (need {min_sites}, both answers): the default stays")
    threshold, f1 = best_threshold(s, y)
    return ThresholdChoice(threshold, f1, False, f"F1 {f1:.3f} at {threshold} over {len(y)} judged sites")


FORMAT, VERSION = "detector-threshold", 1
register_format(FORMAT, VERSION, {"min_likelihood": number, "training": flat_mapping})


def threshold_data(choice: ThresholdChoice, training: dict) -> dict:
    return {"format": FORMAT, "version": VERSION, "min_likelihood": float(choice.threshold),
            "training": dict(training)}


def threshold_from_data(stored) -> float:
    data = parse_model_data(stored, FORMAT)
    if not 0.0 <= data["min_likelihood"] <= 1.0:
        raise ModelDataError(f"detector-threshold.min_likelihood: {data['min_likelihood']} is outside [0, 1]")
    return float(data["min_likelihood"])
