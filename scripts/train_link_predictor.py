"""Rebuild the shipped Link Predictor and report its leave-one-site-out quality.

    .venv/bin/python scripts/train_link_predictor.py [--data /work/shared/data/real-sites]
        [--out frontier/classifiers/data/link_predictor.json] [--seed 0] [--no-save]

Deterministic for a given seed. Prints precision/recall/F1 of the predictor on held-out real sites
per minimum likelihood 0, 0.1, ... 0.9 (Barbosa et al. 2011, Table 1), pooled and per site.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from frontier.classifiers.shipped_link_predictor import DEFAULT_MODEL_PATH, save_link_model  # noqa: E402
from frontier.classifiers.predictor_training import (  # noqa: E402
    detector_on_real_sites,
    leave_one_site_out,
    score_at_thresholds,
    train_shipped_model,
)
from frontier.classifiers.real_sites import DEFAULT_ROOT  # noqa: E402
from frontier.classifiers.link_model import LinkModel  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_ROOT, help="real-sites folder with truth.json")
    parser.add_argument("--out", type=Path, default=DEFAULT_MODEL_PATH)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-save", action="store_true", help="only evaluate")
    args = parser.parse_args(argv)
    if not (args.data / "truth.json").is_file():
        parser.error(f"{args.data} has no truth.json (expected shared/data/real-sites)")

    models: dict = {}
    probs, labels, sites = leave_one_site_out(args.data, seed=args.seed, models=models)
    print(f"leave-one-site-out over {len(set(sites))} real sites: {len(labels)} links, {int(labels.sum())} translation links")
    print("min_likelihood  precision  recall     F1  predicted")
    for s in score_at_thresholds(probs, labels):
        print(f"{s.min_likelihood:14.1f}  {s.precision:9.3f}  {s.recall:6.3f}  {s.f1:5.3f}  {s.predicted:9d}")
    print("\nper held-out site at min_likelihood 0.5 / 0.8 (P R F1):")
    import numpy as np

    owners = np.asarray(sites)
    for site in sorted(set(sites)):
        mask = owners == site
        scores = {s.min_likelihood: s for s in score_at_thresholds(probs[mask], labels[mask])}
        cells = "  ".join(f"{scores[t].precision:.2f} {scores[t].recall:.2f} {scores[t].f1:.2f}" for t in (0.5, 0.8))
        print(f"  {site:52s} pos={int(labels[mask].sum()):3d}  {cells}")

    for threshold in (0.5, 0.8):
        print(f"\nBS detector per site, held-out model, min_likelihood {threshold}, truth languages of paired pages:")
        rows = detector_on_real_sites(models, args.data, min_likelihood=threshold)
        for row in rows:
            print(
                f"  {row['site']:52s} truth={'bi' if row['truth'] else 'no':3s} verdict={'bi' if row['bilingual'] else 'no':3s}"
                f"  pages bilingual {row['pages_bilingual']:3d}/{row['pages']:<3d} mean downloads {row['mean_downloads']:.2f}"
            )
        right = sum(r["truth"] == r["bilingual"] for r in rows)
        print(f"  sites right: {right}/{len(rows)}")

    if not args.no_save:
        model = train_shipped_model(args.data, seed=args.seed)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        save_link_model(LinkModel.from_predictor(model), args.out)  # as data (JSON), never pickled
        print(f"\nsaved {args.out} ({args.out.stat().st_size} bytes, {model.meta['n_train']} training links)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
