"""Convert a Link Predictor saved with joblib (the format before models were stored as data) to the
JSON data format (frontier/classifiers/link_model.py), checking that both score links alike.

    .venv/bin/python scripts/convert_link_predictor.py OLD.joblib [--out frontier/classifiers/data/link_predictor.json]

joblib unpickles, which runs whatever code the file names: convert only a file you made yourself
(this script exists for the model the repository used to ship). The crawler itself only reads JSON.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import joblib  # noqa: E402
import numpy as np  # noqa: E402

from frontier.classifiers.link_features import LinkContext  # noqa: E402
from frontier.classifiers.link_predictor import LinkPredictor  # noqa: E402
from frontier.classifiers.shipped_link_predictor import DEFAULT_MODEL_PATH, load_link_model, save_link_model  # noqa: E402
from frontier.classifiers.link_model import LinkModel  # noqa: E402

# Links of every kind the features look at: switchers, hreflang, flags, plain navigation.
PROBES = [LinkContext(url="http://primer.rs/en/", anchor_text="English", hreflang="en"),
          LinkContext(url="http://primer.rs/sr/o-nama", anchor_text="Srpski"),
          LinkContext(url="http://primer.rs/?lang=en", anchor_text="EN", img_alt="English flag"),
          LinkContext(url="http://primer.rs/kontakt", anchor_text="Kontakt"),
          LinkContext(url="http://drugi.example.com/", anchor_text="partner site"),
          LinkContext(url="http://primer.rs/en/news/2024", anchor_text="News", text_around="latest news in English")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("joblib_file", type=Path)
    parser.add_argument("--out", type=Path, default=DEFAULT_MODEL_PATH)
    args = parser.parse_args(argv)
    payload = joblib.load(args.joblib_file)
    if not isinstance(payload, dict) or payload.get("format") != "link-predictor":
        parser.error(f"{args.joblib_file} is not a joblib Link Predictor")
    old = LinkPredictor(payload["vectorizer"], payload["model"], payload.get("meta"))
    save_link_model(LinkModel.from_predictor(old), args.out)
    new = load_link_model(args.out)
    gap = float(np.max(np.abs(old.predict_proba(PROBES) - new.predict_proba(PROBES))))
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes, {len(new.vocabulary)} features); "
          f"largest difference on probe links {gap:.2e}")
    return 0 if gap < 1e-9 else 1


if __name__ == "__main__":
    raise SystemExit(main())
