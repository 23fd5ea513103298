"""Layered frontier (M01 + M03) against breadth-first on the test web: who reaches parallel pages first.

Two crawls of the same generated test web, same seeds, same budget, embedded mode (SQLite in a
temporary directory, jobs run synchronously in this process, so a step's new Targets are placed
before the next step leases): one breadth-first (no "modules" in the crawl config), one with
{"modules": {"M01": {}, "M03": {}}} and the default priority combination (frontier.placement).
A parallel-pair page is a URL of truth()["sites"][i]["parallel_pairs"] (both sides of every fully
translated pair of the bilingual Serbian-English sites). The curve is, after k fetches (Targets
fetched, in fetch order), how many parallel-pair pages were fetched; the area under it (sum over
k = 1..budget) compares the two crawls: layered_vs_bfs = area(layered) / area(bfs), > 1 = earlier.

The batch size (Targets leased per step, one per host) is kept below the number of hosts: with a
batch as large as the whole web every due host is served every step and no priority can matter;
real crawls have far more hosts than a batch.

Then the diacritic measurement: M01 over every Target of the layered crawl (as linked, with anchor
texts), once with restore_diacritics true and once false; layer and rule counts of both.

    .venv/bin/python bench/frontier_curve.py [--quick] [--size N] [--budget B] [--batch K] [--seed S]

Last line: RESULT layered_vs_bfs=... layered_pair_pages=... bfs_pair_pages=... diacritics_primary_delta=...
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# The method's layering as configured by default: Serbian Primary, English Secondary (points 2, 1, 0).
LAYERED_CONFIG = {"modules": {"M01": {}, "M03": {}}}
# For parallel pages both sides are wanted alike: Primary and Secondary worth the same, Reserve behind.
PAIRS_CONFIG = {"modules": {"M01": {}, "M03": {}},
                "priority": {"layer_points": {"primary": 2, "secondary": 2, "reserve": 0}}}


def configure(var_dir: Path, batch: int) -> None:
    """Embedded mode in a throw-away directory; must run before Django is set up."""
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "crawlweb.settings", "VAR_DIR": str(var_dir),
        "DATABASE_URL": f"sqlite:///{var_dir}/bench.sqlite3", "JOBS_INPROCESS_MODE": "sync",
        "CRAWLER_HOST_INTERVAL": "0", "CRAWLER_BATCH_SIZE": str(batch), "CRAWLER_IDLE_FINISH_SECONDS": "1",
        "CRAWLER_READ_TIMEOUT": "2", "CRAWLER_WARC": "0", "LOG_LEVEL": "WARNING",
    })
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def run_crawl(name: str, seeds: list[str], budget: int, config: dict):
    from crawlweb.models import Crawl, SeedList
    from crawlweb.services.crawl_control import start_crawl

    seed_list = SeedList.objects.create(name=f"bench {name}")
    seed_list.seeds.bulk_create([seed_list.seeds.model(seed_list=seed_list, url=url) for url in seeds])
    crawl = Crawl.objects.create(name=name, seed_list=seed_list, page_budget=budget, config=config)
    started = time.monotonic()
    start_crawl(crawl)  # sync jobs: returns when the crawl has finished
    crawl.refresh_from_db()
    return crawl, time.monotonic() - started


def pair_urls(truth: dict) -> set[str]:
    from crawlweb.crawler.urls import normalize_url

    return {normalize_url(url) for site in truth["sites"] for pair in site["parallel_pairs"] for url in pair}


def curve(crawl, pairs: set[str]) -> list[int]:
    """curve[k-1] = parallel-pair pages fetched among the first k fetches."""
    from frontier.models import Target

    fetched = (Target.objects.filter(crawl=crawl, fetched_at__isnull=False).order_by("fetched_at", "id")
               .values_list("url", "state"))
    points, found = [], 0
    for url, state in fetched:
        found += int(state == Target.State.DONE and url in pairs)
        points.append(found)
    return points


def at(points: list[int], k: int) -> int:
    return points[min(k, len(points)) - 1] if points else 0


def diacritic_effect(crawl) -> dict[str, Counter]:
    from frontier.layers.language import LanguageModule
    from frontier.models import Target
    from frontier.placement import target_info

    infos = [target_info(t) for t in Target.objects.filter(crawl=crawl).select_related("site").order_by("id")]
    out = {}
    for restore in (True, False):
        placements = LanguageModule.from_config({"restore_diacritics": restore}).distribute(infos)
        out[restore] = (Counter(p.layer_id for p in placements), Counter((p.layer_id, p.rule) for p in placements),
                        {p.key: p.layer for p in placements})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small web and budget: under 60 s")
    parser.add_argument("--size", type=int, help="sites of the test web")
    parser.add_argument("--pages", type=int, help="pages per site and language")
    parser.add_argument("--budget", type=int, help="pages per crawl")
    parser.add_argument("--batch", type=int, default=6, help="Targets leased per step (one per host)")
    parser.add_argument("--seed", type=int, default=3, help="test web seed")
    args = parser.parse_args()
    size = args.size or (20 if args.quick else 60)
    pages = args.pages or (6 if args.quick else 12)
    budget = args.budget or (60 if args.quick else 600)

    with tempfile.TemporaryDirectory(prefix="frontier_curve_") as tmp:
        configure(Path(tmp), args.batch)
        from crawlweb.services.network import fetcher_for
        from crawlweb.testweb.generator import generate_web
        from crawlweb.testweb.server import TestWebServer

        server = TestWebServer(generate_web(seed=args.seed, size=size, pages_per_site=pages, slow_delay_s=0.2),
                               host="127.0.0.1", port=0)
        server.start()
        try:
            for name in ("HTTP_PROXY", "http_proxy"):
                os.environ[name] = server.proxy_url
            os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost,::1"
            fetcher_for.cache_clear()
            truth = server.truth()
            pairs = pair_urls(truth)
            seeds = truth["seed_urls"]
            print(f"test web: seed {args.seed}, {size} sites, {pages} pages/site/language, "
                  f"{len(pairs)} parallel-pair pages; budget {budget}, batch {args.batch}, seeds {len(seeds)}")
            crawls = [run_crawl(name, seeds, budget, config)
                      for name, config in (("bfs", {}), ("layered", LAYERED_CONFIG), ("pairs", PAIRS_CONFIG))]
        finally:
            server.stop()
        for crawl, seconds in crawls:
            print(f"  {crawl.name:8s} {crawl.state}, {crawl.pages_fetched} fetched in {seconds:.1f} s, "
                  f"config {crawl.config}" + (f", last error: {crawl.last_error[:200]}" if crawl.last_error else ""))
        curves = {crawl.name: curve(crawl, pairs) for crawl, _ in crawls}
        print("\nparallel-pair pages fetched after k fetches")
        print(f"{'k':>6}" + "".join(f"{name:>9}" for name in curves))
        for k in sorted({max(1, round(budget * f)) for f in (0.1, 0.2, 0.3, 0.5, 0.75, 1.0)}):
            print(f"{k:6d}" + "".join(f"{at(points, k):9d}" for points in curves.values()))
        area = {name: sum(at(points, k) for k in range(1, budget + 1)) for name, points in curves.items()}
        ratio = {name: area[name] / area["bfs"] if area["bfs"] else float("inf") for name in area}
        print("area under the curve: " + ", ".join(f"{name} {area[name]} ({ratio[name]:.3f} x bfs)" for name in area))
        layered = crawls[1][0]

        effect = diacritic_effect(layered)
        print(f"\nM01 over the {sum(effect[True][0].values())} Targets of the layered crawl, one batch:")
        print(f"{'layer':10s} {'restore on':>11s} {'restore off':>12s}")
        for layer in sorted(set(effect[True][0]) | set(effect[False][0])):
            print(f"{layer:10s} {effect[True][0][layer]:11d} {effect[False][0][layer]:12d}")
        print(f"{'rule':28s} {'restore on':>11s} {'restore off':>12s}")
        for key in sorted(set(effect[True][1]) | set(effect[False][1])):
            print(f"{key[0] + ' ' + key[1]:28s} {effect[True][1][key]:11d} {effect[False][1][key]:12d}")
        moved = sum(1 for k, layer in effect[True][2].items() if effect[False][2][k] != layer)
        primary_delta = effect[True][0]["M01.L01"] - effect[False][0]["M01.L01"]
        print(f"Targets whose M01 layer changes with restoration: {moved}; Primary +{primary_delta}")
        print(f"RESULT layered_vs_bfs={ratio['layered']:.4f} pairs_config_vs_bfs={ratio['pairs']:.4f} "
              f"layered_pair_pages={at(curves['layered'], budget)} "
              f"pairs_config_pair_pages={at(curves['pairs'], budget)} "
              f"bfs_pair_pages={at(curves['bfs'], budget)} diacritics_primary_delta={primary_delta} "
              f"diacritics_moved={moved}")


if __name__ == "__main__":
    main()
