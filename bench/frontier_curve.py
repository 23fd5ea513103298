"""Layered frontier (M01 + M03) against breadth-first: who reaches parallel pages first.

Crawls of the same web with the same seeds, budget and batch, each from a clean slate, in embedded
mode (SQLite in a temporary directory, jobs run synchronously in this process, so a step's new
Targets are placed before the next step leases):
  bfs      breadth-first (no "modules" in the crawl config);
  layered  {"modules": {"M01": {}, "M03": {}}} with the default priority combination
           (frontier.priority, docs/explanation/layered-frontier.md);
  m01      M01 alone with the same defaults: what M03 adds is layered - m01.
A parallel-pair page is a URL of truth()["sites"][i]["parallel_pairs"] (both sides of every fully
translated pair of the bilingual Serbian-English sites). The curve is, after k fetches (Targets
fetched, in fetch order), how many parallel-pair pages were fetched; the area under it (sum over
k = 1..budget) compares two crawls: layered_vs_bfs = area(layered) / area(bfs), > 1 = earlier.
A page is only half of a pair, so the script also counts complete pairs (both sides fetched):
pairs_vs_bfs is the same ratio over that curve.

Fair play: every crawl starts with the hosts as a fresh database has them (no politeness clock,
no round-robin history, no cached robots.txt from the crawl before), both frontiers lease at most
one Target per host per step (the politeness they share; the host interval is 0 so timing does
not decide), and the batch (Targets leased per step) is kept below the number of hosts: with a
batch as large as the whole web every due host is served every step and no priority can matter;
real crawls have far more hosts than a batch.

The same comparison then runs on the real bilingual sites of shared/data/real-sites (their roots
as seeds; their own truth pairs), unless --no-real-sites: real_vs_bfs. Eight hosts and a batch of 3
make the first hosts served matter (one of the eight is a Croatian-English site, another has no
pairs), and equal priorities are served in Host id order, so the comparison is repeated over
--real-orders seeded host orders and the ratios are averaged. Last, the diacritic
measurement: M01 over every Target of the layered crawl (as linked, with anchor texts), once with
restore_diacritics true and once false; layer and rule counts of both.

    .venv/bin/python bench/frontier_curve.py [--quick] [--size N] [--budget B] [--batch K] [--seed S]
                                             [--real-budget B] [--real-batch K] [--real-orders N] [--no-real-sites]

Last line: RESULT layered_vs_bfs=... pairs_vs_bfs=... m01_vs_bfs=... real_vs_bfs=... layered_pair_pages=...
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CONFIGS = {"bfs": {}, "layered": {"modules": {"M01": {}, "M03": {}}}, "m01": {"modules": {"M01": {}}}}


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


def fresh_hosts() -> None:
    """Hosts as a new database has them: the crawl before leaves clocks, round-robin order and robots."""
    from crawlweb.models import Host

    Host.objects.update(next_fetch_at=None, busy_until=None, last_served_at=None, robots={}, robots_status=None,
                        robots_expires_at=None, crawl_delay=None)


def run_crawl(name: str, seeds: list[str], budget: int, config: dict, batch: int | None = None):
    from django.test import override_settings

    from crawlweb.models import Crawl, SeedList
    from crawlweb.jobs.crawl_control import start_crawl

    fresh_hosts()
    seed_list = SeedList.objects.create(name=f"bench {name} {time.monotonic_ns()}")
    seed_list.seeds.bulk_create([seed_list.seeds.model(seed_list=seed_list, url=url) for url in seeds])
    crawl = Crawl.objects.create(name=name, seed_list=seed_list, page_budget=budget, config=config)
    started = time.monotonic()
    with override_settings(**({"CRAWLER_BATCH_SIZE": batch} if batch else {})):
        start_crawl(crawl)  # sync jobs: returns when the crawl has finished
    crawl.refresh_from_db()
    return crawl, time.monotonic() - started


def pair_list(sites: list[dict]) -> list[tuple[str, str]]:
    from crawlweb.crawler.urls import normalize_url

    return [(normalize_url(a), normalize_url(b)) for site in sites for a, b in site["parallel_pairs"]]


def fetch_order(crawl) -> list[tuple[str, bool]]:
    """(url, stored?) of every fetched Target, in fetch order."""
    from frontier.models import Target

    return [(url, state == Target.State.DONE) for url, state in
            Target.objects.filter(crawl=crawl, fetched_at__isnull=False).order_by("fetched_at", "id")
            .values_list("url", "state")]


def curves(order: list[tuple[str, bool]], pairs: list[tuple[str, str]], budget: int) -> tuple[list[int], list[int]]:
    """(pair pages fetched, complete pairs fetched) after k = 1..budget fetches."""
    sides = {url for pair in pairs for url in pair}
    when = {url: k for k, (url, stored) in enumerate(order, 1) if stored}
    pages, found = [], 0
    for url, stored in order[:budget]:
        found += int(stored and url in sides)
        pages.append(found)
    pages += [found] * (budget - len(pages))
    completed = Counter(max(when[a], when[b]) for a, b in pairs if a in when and b in when)
    complete, total = [], 0
    for k in range(1, budget + 1):
        total += completed.get(k, 0)
        complete.append(total)
    return pages, complete


def set_host_order(names: list[str], seed: int) -> None:
    """Create the Host rows of ``names`` anew in a seeded random order (ties between hosts go by id)."""
    from crawlweb.models import Host
    from crawlweb.services.hosts import hosts_for

    Host.objects.filter(name__in=names).delete()  # with the Targets of the crawls before: already counted
    shuffled = sorted(names)
    random.Random(seed).shuffle(shuffled)
    for name in shuffled:
        hosts_for({name})


def compare(title: str, seeds: list[str], pairs: list[tuple[str, str]], budget: int, batch: int | None) -> dict:
    """Run the three crawls, print both curves, return {name: (page area, pair area, pages, pairs) x bfs}."""
    runs = {}
    for name, config in CONFIGS.items():
        crawl, seconds = run_crawl(f"{title} {name}", seeds, budget, config, batch)
        runs[name] = curves(fetch_order(crawl), pairs, budget)
        print(f"  {name:8s} {crawl.state}, {crawl.pages_fetched} fetched in {seconds:.1f} s"
              + (f", last error: {crawl.last_error[:200]}" if crawl.last_error else ""))
    print(f"\n{title}: parallel-pair pages (complete pairs) fetched after k fetches")
    print(f"{'k':>6}" + "".join(f"{name:>14}" for name in runs))
    for k in sorted({max(1, round(budget * f)) for f in (0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0)}):
        print(f"{k:6d}" + "".join(f"{pages[k - 1]:8d} ({complete[k - 1]:3d})" for pages, complete in runs.values()))
    out = {name: (sum(pages), sum(complete), pages[-1], complete[-1]) for name, (pages, complete) in runs.items()}
    base = out["bfs"]
    print("area under the curves, x bfs: " + ", ".join(
        f"{name} pages {v[0] / max(base[0], 1):.3f} pairs {v[1] / max(base[1], 1):.3f}" for name, v in out.items()))
    return {name: (v[0] / max(base[0], 1), v[1] / max(base[1], 1), v[2], v[3]) for name, v in out.items()}


def diacritic_effect(crawl_name: str) -> dict[bool, tuple]:
    from crawlweb.models import Crawl
    from frontier.layers.language import LanguageModule
    from frontier.models import Target
    from frontier.placement import target_info

    crawl = Crawl.objects.get(name=crawl_name)
    infos = [target_info(t) for t in Target.objects.filter(crawl=crawl).select_related("site").order_by("id")]
    out = {}
    for restore in (True, False):
        placements = LanguageModule.from_config({"restore_diacritics": restore}).distribute(infos)
        out[restore] = (Counter(p.layer_id for p in placements), Counter((p.layer_id, p.rule) for p in placements),
                        {p.key: p.layer for p in placements})
    return out


def print_diacritics(effect: dict) -> tuple[int, int]:
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
    return primary_delta, moved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small web and budget: under 60 s")
    parser.add_argument("--size", type=int, help="sites of the test web")
    parser.add_argument("--pages", type=int, help="pages per site and language")
    parser.add_argument("--budget", type=int, help="pages per crawl")
    parser.add_argument("--batch", type=int, default=6, help="Targets leased per step (one per host)")
    parser.add_argument("--seed", type=int, default=3, help="test web seed")
    parser.add_argument("--real-budget", type=int, help="pages per crawl of the real sites")
    parser.add_argument("--real-batch", type=int, default=3, help="batch of the real-site crawls (8 hosts)")
    parser.add_argument("--real-orders", type=int, help="host orders the real-site comparison is averaged over")
    parser.add_argument("--no-real-sites", action="store_true", help="skip the crawls of the real sites")
    args = parser.parse_args()
    size = args.size or (20 if args.quick else 60)
    pages = args.pages or (6 if args.quick else 12)
    budget = args.budget or (60 if args.quick else 600)
    real_budget = args.real_budget or (60 if args.quick else 150)
    args.real_orders = args.real_orders or (2 if args.quick else 4)
    from crawlweb.devdata import shared_data_dir

    real_dir = None if args.no_real_sites else shared_data_dir() / "real-sites"
    if real_dir is not None and not (real_dir / "truth.json").is_file():
        print(f"no real sites at {real_dir}: skipping them")
        real_dir = None

    with tempfile.TemporaryDirectory(prefix="frontier_curve_") as tmp:
        configure(Path(tmp), args.batch)
        from bench.support.proxied_web import proxied_test_web
        from crawlweb.testweb.generator import generate_web

        web = generate_web(seed=args.seed, size=size, pages_per_site=pages, slow_delay_s=0.2)
        with proxied_test_web(web, real_dir) as server:
            truth = server.truth()
            real_hosts = {site["host"] for site in truth["sites"][len(web.sites):]}
            generated, real = truth["sites"][:len(web.sites)], truth["sites"][len(web.sites):]
            seeds = [url for url in truth["seed_urls"] if not any(f"//{host}/" in url for host in real_hosts)]
            pairs = pair_list(generated)
            print(f"test web: seed {args.seed}, {size} sites, {pages} pages/site/language, "
                  f"{2 * len(pairs)} parallel-pair pages; budget {budget}, batch {args.batch}, seeds {len(seeds)}")
            test_web = compare("test web", seeds, pairs, budget, None)
            real_ratios = []
            if real:
                real_pairs = pair_list(real)
                for order in range(args.real_orders):
                    print(f"\nreal sites: {len(real)} sites, {2 * len(real_pairs)} parallel-pair pages; budget "
                          f"{real_budget}, batch {args.real_batch}, host order {order + 1} of {args.real_orders}")
                    set_host_order([host for site in real for host in site["hosts"]], args.seed * 1000 + order)
                    result = compare(f"real sites {order + 1}", [f"http://{s['host']}/" for s in real], real_pairs,
                                     real_budget, args.real_batch)
                    real_ratios.append(result["layered"][0])
                print(f"\nreal sites, layered vs bfs per host order: {', '.join(f'{r:.3f}' for r in real_ratios)}; "
                      f"mean {sum(real_ratios) / len(real_ratios):.3f}")
        primary_delta, moved = print_diacritics(diacritic_effect("test web layered"))
        real_text = f"real_vs_bfs={sum(real_ratios) / len(real_ratios):.4f} " if real_ratios else ""
        print(f"RESULT layered_vs_bfs={test_web['layered'][0]:.4f} pairs_vs_bfs={test_web['layered'][1]:.4f} "
              f"m01_vs_bfs={test_web['m01'][0]:.4f} {real_text}"
              f"layered_pair_pages={test_web['layered'][2]} bfs_pair_pages={test_web['bfs'][2]} "
              f"layered_pairs={test_web['layered'][3]} bfs_pairs={test_web['bfs'][3]} "
              f"diacritics_primary_delta={primary_delta} diacritics_moved={moved}")


if __name__ == "__main__":
    main()
