"""The shipped Link Predictor, stored as data: frontier/classifiers/data/link_predictor.json.

It is the JSON format of retrained Link Predictors (frontier/classifiers/link_model.py: vocabulary and the
numbers of the calibrated linear SVMs), loaded through its schema check, so the file cannot run code;
a pickle or joblib file in its place is refused with a clear error (ModelDataError).
scripts/train_link_predictor.py rebuilds it; scripts/convert_link_predictor.py converted the joblib
file shipped before.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from frontier.classifiers.link_model import LinkModel
from crawlweb.model_data import ModelDataError

DEFAULT_MODEL_PATH = Path(__file__).with_name("data") / "link_predictor.json"


def load_link_model(path: str | Path) -> LinkModel:
    path = Path(path)
    if not path.is_file():
        raise ModelDataError(f"no Link Predictor model at {path}")
    try:
        return LinkModel.from_data(path.read_bytes())
    except ModelDataError as exc:
        raise ModelDataError(f"{path}: {exc}") from None


def save_link_model(model: LinkModel, path: str | Path) -> None:
    Path(path).write_text(json.dumps(model.to_data(), separators=(",", ":")), encoding="utf-8")


@lru_cache(maxsize=1)
def default_link_predictor() -> LinkModel:
    """The shipped starting model, loaded once; shared, so use it read-only."""
    return load_link_model(DEFAULT_MODEL_PATH)
