"""Why is a layered crawl early or late? The first N fetches of each crawl, with layers and rules.

Runs the same crawls as bench/frontier_curve.py (same test web, seeds, budget, batch) and prints,
for the first N fetches of each, in fetch order: the URL, whether it is a parallel-pair page (P),
its depth and priority, and each module's layer and rule with the rule's evidence. Then, for the
layered crawl, the parallel-pair pages that were known (a Target existed) but not fetched, with
their layers -- the pages the frontier held back.

    .venv/bin/python bench/support/frontier_trace.py [--quick] [--first N] [--seed S] [--config layered|m01]
                                                     [--config-json '{"modules": {...}, "priority": {...}}']
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import frontier_curve as fc  # noqa: E402  (the bench's crawl set-up, reused as is)


def describe(target, placements: dict) -> str:
    parts = []
    for code in sorted(placements):
        p = placements[code]
        evidence = p.evidence
        short = (evidence.get("needle") or evidence.get("tlw") or evidence.get("node")) if evidence else ""
        parts.append(f"{code}:{p.layer_id[-1]} {p.rule}({short})")
    return " | ".join(parts)


def trace(crawl, pairs: set[str], first: int) -> None:
    from frontier.models import LayerPlacement, Target

    placements: dict[int, dict] = {}
    for row in LayerPlacement.objects.filter(target__crawl=crawl):
        placements.setdefault(row.target_id, {})[row.module] = row
    fetched = list(Target.objects.filter(crawl=crawl, fetched_at__isnull=False).order_by("fetched_at", "id"))
    print(f"\n== {crawl.name}: first {first} of {len(fetched)} fetches")
    for k, t in enumerate(fetched[:first], 1):
        mark = "P" if t.url in pairs and t.state == Target.State.DONE else " "
        print(f"{k:4d} {mark} d{t.depth} {t.priority:8.4f} {t.url[:70]:70s} "
              f"{describe(t, placements.get(t.pk, {}))} [{(t.anchor_text or t.img_alt or '')[:30]}]")
    if crawl.name != "bfs":
        waiting = [t for t in Target.objects.filter(crawl=crawl, fetched_at__isnull=True) if t.url in pairs]
        layers = Counter(" ".join(f"{c}:{p.layer_id[-1]}:{p.rule}" for c, p in sorted(placements.get(t.pk, {}).items()))
                         for t in waiting)
        print(f"-- parallel-pair pages known but not fetched: {len(waiting)}")
        for key, n in layers.most_common():
            print(f"   {n:4d} {key}")
        all_fetched = Counter(" ".join(f"{c}:{p.layer_id[-1]}" for c, p in sorted(placements.get(t.pk, {}).items()))
                              for t in fetched)
        print(f"-- layers of the fetched Targets: {dict(all_fetched.most_common())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--first", type=int, default=60)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--batch", type=int, default=6)
    parser.add_argument("--config", default="layered", choices=("layered", "m01"))
    parser.add_argument("--config-json", help="a crawl config to trace instead of --config")
    parser.add_argument("--real", action="store_true", help="crawl the real sites of shared/data (batch 3)")
    args = parser.parse_args()
    size, pages, budget = (20, 6, 60) if args.quick else (60, 12, 600)
    if args.real:
        budget, args.batch = (60 if args.quick else 150), 3
    from crawlweb.devdata import shared_data_dir
    with tempfile.TemporaryDirectory(prefix="frontier_trace_") as tmp:
        fc.configure(Path(tmp), args.batch)
        from bench.support.proxied_web import proxied_test_web
        from crawlweb.testweb.generator import generate_web

        web = generate_web(seed=args.seed, size=size, pages_per_site=pages, slow_delay_s=0.2)
        with proxied_test_web(web, shared_data_dir() / "real-sites" if args.real else None) as server:
            truth = server.truth()
            pairs = {url for pair in fc.pair_list(truth["sites"]) for url in pair}
            seeds = ([f"http://{site['host']}/" for site in truth["sites"][len(web.sites):]] if args.real
                     else truth["seed_urls"])
            config = json.loads(args.config_json) if args.config_json else fc.CONFIGS[args.config]
            crawls = [fc.run_crawl(name, seeds, budget, cfg)[0]
                      for name, cfg in (("bfs", {}), (args.config, config))]
        for crawl in crawls:
            trace(crawl, pairs, args.first)
        print("\nparallel-pair pages after k fetches:")
        points = {crawl.name: fc.curves(fc.fetch_order(crawl), [(u, u) for u in pairs], budget)[0] for crawl in crawls}
        for k in sorted({max(1, round(budget * f)) for f in (0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0)}):
            print(f"  k={k}: " + " ".join(f"{name} {curve[k - 1]}" for name, curve in points.items()))


if __name__ == "__main__":
    main()
