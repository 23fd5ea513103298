"""Harvest benchmark of Issue 5: strategies compared on the test web, and the BS Detector sweep.

1. Detector sweep (Barbosa et al. 2011, Table 1 shape): for every content site of a test web the
   detector reads the site's home page. "Link Predictor alone" calls a site bilingual when one of
   the page's links scores at least the minimum likelihood; "whole detector" also identifies the
   language of the pages behind those links (bs_detector.detect_bilingual, at most 5 fetches).
   Precision, recall, F1 (site level, against the test web's truth) and pages downloaded per site
   at minimum likelihoods 0, 0.1 ... 0.9. The shipped Link Predictor was trained on real sites and
   switcher conventions, never on the test web.
2. `manage.py experiment` with FC, OBFC and COBFC on generated test webs (one per web seed), one
   fixed seed list (home pages of its first bilingual sites) and one page budget, in its own
   PostgreSQL database (crawl_bench_harvest, dropped at the end; an SQLite file in a temporary
   VAR_DIR when PostgreSQL is not reachable). The web is much larger than the budget can reach
   (as the open web is for the paper's 100,000 pages): on a web the budget nearly covers, every
   strategy fetches the same sites and their order cannot matter. The BS Detector's own page
   downloads count in the budget. Only the discovery follow-up runs here: the other follow-ups
   (pairing, evaluation) do not change the crawl order and only cost time.

    .venv/bin/python bench/harvest.py [--quick] [--size N] [--budget N] [--web-seeds 5,6,7]

Last line: RESULT cobfc_vs_fc=... obfc_vs_fc=... detector_precision=... detector_recall=... pages_per_site=...
cobfc_vs_obfc=... cobfc_vs_obfc_min=...
(ratios of bilingual sites found per page at the same budget, counting distinct sites the test web's
truth calls sr-en bilingual among the detector's positive verdicts, averaged over the web seeds;
cobfc_vs_obfc_min is the worst web seed; the ratios of raw verdicts are printed too. Detector figures
at minimum likelihood 0.8.)
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
THRESHOLDS = tuple(round(0.1 * i, 1) for i in range(10))
PG = "postgres://postgres@127.0.0.1:5432/"
DB_NAME = "crawl_bench_harvest"


def prf(predicted: list[bool], truth: list[bool]) -> tuple[float, float, float]:
    tp = sum(p and t for p, t in zip(predicted, truth))
    precision = tp / sum(predicted) if sum(predicted) else 0.0
    recall = tp / sum(truth) if sum(truth) else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


class Scored:
    """A predictor that answers with scores computed once per page (the sweep reuses them)."""

    def __init__(self, scores):
        self.scores = scores

    def predict_proba(self, links):
        return self.scores


def detector_sweep(web_seed: int, size: int) -> dict[float, dict]:
    from crawlweb.crawler.charset import decode_html
    from crawlweb.crawler.htmlparse import parse_html
    from crawlweb.services.page_language import identify_page_language
    from crawlweb.testweb import generate_web
    from frontier.classifiers.bs_detector import detect_bilingual
    from frontier.classifiers.shipped_link_predictor import default_link_predictor
    from frontier.classifiers.page_links import link_contexts_from_html

    web = generate_web(seed=web_seed, size=size, pages_per_site=6)
    truth = web.truth()
    predictor = default_link_predictor()
    languages: dict[str, str | None] = {}

    def page(url: str):
        response = web.respond("GET", url)
        if response.status != 200 or "html" not in response.headers.get("Content-Type", ""):
            return None, None
        text, _ = decode_html(response.read(), "utf-8")
        return text, parse_html(text, url)

    def fetch_language(url: str) -> str | None:
        if url not in languages:
            _, parsed = page(url)
            languages[url] = identify_page_language(parsed, url)[0] or None if parsed is not None else None
        return languages[url]

    sites = [s for s in truth["sites"] if s["kind"] not in ("directory", "special") and s.get("home_urls")]
    inputs = []
    for site in sites:
        url = next(iter(site["home_urls"].values()))
        html, parsed = page(url)
        if parsed is None:
            continue
        links = link_contexts_from_html(html, url)
        scores = predictor.predict_proba(links) if links else []
        inputs.append((site["bilingual_sr_en"], url, identify_page_language(parsed, url)[0], links, scores))
    table = {}
    for t in THRESHOLDS:
        lp, det, pages = [], [], []
        for _, url, lang, links, scores in inputs:
            lp.append(any(s >= t and link.url.split("#")[0] != url for link, s in zip(links, scores)))
            verdict = detect_bilingual(url, lang, links, Scored(scores), fetch_language, min_likelihood=t,
                                       pair=("sr", "en"), max_fetches=5)
            det.append(verdict.bilingual)
            pages.append(verdict.pages_downloaded)
        truth_flags = [i[0] for i in inputs]
        table[t] = {"lp": prf(lp, truth_flags), "detector": prf(det, truth_flags),
                    "pages_per_site": sum(pages) / len(pages) if pages else 0.0}
    print(f"Detector sweep: {len(inputs)} sites of test web seed {web_seed} "
          f"({sum(i[0] for i in inputs)} bilingual sr-en)")
    print(" min  | LP alone P    R     F1   | detector P    R     F1   | pages/site")
    for t, row in table.items():
        (lp_p, lp_r, lp_f), (d_p, d_r, d_f) = row["lp"], row["detector"]
        print(f" {t:.1f}  |   {lp_p:.3f} {lp_r:.3f} {lp_f:.3f} |   {d_p:.3f} {d_r:.3f} {d_f:.3f} | {row['pages_per_site']:.2f}")
    return table


def setup_database() -> tuple[str, bool]:
    """Our own database: PostgreSQL when reachable, else SQLite in a temporary VAR_DIR."""
    try:
        import psycopg

        with psycopg.connect(PG + "postgres", autocommit=True, connect_timeout=3) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME}")
            conn.execute(f"CREATE DATABASE {DB_NAME}")
        os.environ["DATABASE_URL"] = PG + DB_NAME
        return "postgresql", True
    except Exception:  # noqa: BLE001 - no server (or no client): the embedded mode is enough here
        os.environ["DATABASE_URL"] = ""
        os.environ["VAR_DIR"] = tempfile.mkdtemp(prefix="harvest-bench-")
        return "sqlite", False


def drop_database() -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(PG + "postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--size", type=int)
    parser.add_argument("--budget", type=int)
    parser.add_argument("--web-seeds", help="comma-separated test web seeds (quick: 5; full: 5,6,7)")
    parser.add_argument("--web-seed", type=int, help="one test web seed (same as --web-seeds S)")
    parser.add_argument("--out", default=str(ROOT / "var" / "bench-harvest"))
    args = parser.parse_args()
    size = args.size or (300 if args.quick else 400)
    budget = args.budget or (100 if args.quick else 150)
    seeds_text = str(args.web_seed) if args.web_seed is not None else args.web_seeds or ("5" if args.quick else "5,6,7")
    web_seeds = [int(s) for s in seeds_text.split(",") if s.strip()]
    sweep_size = 40 if args.quick else 120
    started = time.monotonic()

    backend, is_pg = setup_database()
    os.environ.pop("REDIS_URL", None)  # embedded, synchronous: one strategy after the other
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "crawlweb.settings")
    import logging

    import django

    django.setup()
    logging.disable(logging.WARNING)
    from django.core.management import call_command

    from crawlweb.services import followups

    followups.FOLLOWUPS[:] = ["frontier.discovery_followup.after_step"]
    per_seed: dict[int, dict[str, float]] = {}
    try:
        table = detector_sweep(web_seeds[0] + 1, sweep_size)
        call_command("migrate", verbosity=0)
        from frontier.experiment import ratios
        from console.management.commands.experiment import Command

        for web_seed in web_seeds:
            print(f"\nExperiment on {backend}: test web seed {web_seed}, {size} sites, budget {budget} pages")
            command = Command()
            call_command(command, testweb=True, size=size, budget=budget, web_seed=web_seed,
                         strategies="FC,OBFC,COBFC", out=str(Path(args.out) / f"web-{web_seed}"))
            per_seed[web_seed] = ratios(command.runs)
    finally:
        if is_pg:
            drop_database()
    keys = ("cobfc_vs_obfc", "obfc_vs_fc", "cobfc_vs_fc")
    print("\nBilingual sites per page (truly bilingual), ratios per web seed")
    print(" web seed | " + " | ".join(f"{k:13}" for k in keys))
    for web_seed, found in per_seed.items():
        print(f" {web_seed:8} | " + " | ".join(f"{found[k]:13.3f}" for k in keys))
    mean = {k: sum(f[k] for f in per_seed.values()) / len(per_seed) for k in keys}
    print(" mean     | " + " | ".join(f"{mean[k]:13.3f}" for k in keys))
    d_p, d_r, _ = table[0.8]["detector"]
    print(f"\n{time.monotonic() - started:.1f}s")
    print(f"RESULT cobfc_vs_fc={mean['cobfc_vs_fc']:.4f} obfc_vs_fc={mean['obfc_vs_fc']:.4f} "
          f"detector_precision={d_p:.4f} detector_recall={d_r:.4f} pages_per_site={table[0.8]['pages_per_site']:.4f} "
          f"cobfc_vs_obfc={mean['cobfc_vs_obfc']:.4f} "
          f"cobfc_vs_obfc_min={min(f['cobfc_vs_obfc'] for f in per_seed.values()):.4f}")


if __name__ == "__main__":
    main()
