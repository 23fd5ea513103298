"""Site discovery on the real development web: which sites each crawl calls bilingual, and how much
of its budget it used.

The real sites (REALWEB_DIR when set and present, else shared/data/real-sites; same format:
hosts/<host>/<path> and truth.json) are served through the test web's proxy beside a small
generated web nobody seeds. A COBFC crawl and a breadth-first crawl start from the real sites' seeds
(truth.json's "seeds" when it lists them, else every site's root) with one page budget, embedded
mode (SQLite in a temporary directory, jobs run synchronously). For each crawl: the stored site
verdicts (frontier.models.SiteVerdict) against truth's ``bilingual_sr_en``: precision and recall
over the real sites; sites judged; pages fetched of the budget.

    .venv/bin/python bench/site_discovery.py [--quick] [--budget N] [--batch K] [--strategies cobfc,bfs]

Last line: RESULT cobfc_site_p=… cobfc_site_r=… cobfc_fetched=… bfs_site_p=… bfs_site_r=… bfs_judged=…
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def configure(var_dir: Path, batch: int) -> None:
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "crawlweb.settings", "VAR_DIR": str(var_dir),
        "DATABASE_URL": f"sqlite:///{var_dir}/bench.sqlite3", "JOBS_INPROCESS_MODE": "sync",
        "CRAWLER_HOST_INTERVAL": "0", "CRAWLER_BATCH_SIZE": str(batch), "CRAWLER_IDLE_FINISH_SECONDS": "1",
        "CRAWLER_READ_TIMEOUT": "3", "CRAWLER_WARC": "0", "LOG_LEVEL": "ERROR",
        "CRAWLER_ADDRESS_POLICY": "loopback",
    })
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def real_web_dir() -> Path | None:
    from crawlweb.devdata import shared_data_dir

    for candidate in (os.environ.get("REALWEB_DIR"), "/work/realweb", shared_data_dir() / "real-sites"):
        if candidate and (Path(candidate) / "truth.json").is_file() and (Path(candidate) / "hosts").is_dir():
            return Path(candidate)
    return None


def seeds_of(root: Path, sites: list[dict], quick: bool) -> list[str]:
    data = json.loads((root / "truth.json").read_text(encoding="utf-8"))
    seeds = list(data.get("seeds") or [])
    if not seeds:
        seeds = [f"http://{site['host']}/" for site in sites]
    return seeds[:4] if quick else seeds


def run_crawl(name: str, strategy: str, seeds: list[str], budget: int):
    from crawlweb.models import Crawl, SeedList
    from crawlweb.jobs.crawl_control import start_crawl

    seed_list = SeedList.objects.create(name=f"bench {name} {time.monotonic_ns()}")
    seed_list.seeds.bulk_create([seed_list.seeds.model(seed_list=seed_list, url=url) for url in seeds])
    crawl = Crawl.objects.create(name=name, seed_list=seed_list, page_budget=budget, strategy=strategy,
                                 config={"host_interval": 0, "random_seed": 1,
                                         "backlinks": {"providers": [{"kind": "graph"}], "rate": 1000}})
    started = time.monotonic()
    start_crawl(crawl)
    crawl.refresh_from_db()
    return crawl, time.monotonic() - started


def site_scores(crawl, truth: dict[str, bool]) -> dict:
    from crawlweb.crawler.urls import site_name
    from frontier.models import SiteVerdict

    verdicts = {v.site.name: v.bilingual for v in SiteVerdict.objects.filter(crawl=crawl).select_related("site")}
    real = {site_name(host): bilingual for host, bilingual in truth.items()}
    said = {name for name, bilingual in verdicts.items() if bilingual and name in real}
    true = {name for name, bilingual in real.items() if bilingual}
    hit = said & true
    return {"p": len(hit) / len(said) if said else 0.0, "r": len(hit) / len(true) if true else 0.0,
            "judged": sum(1 for name in verdicts if name in real), "found": len(hit), "said": len(said),
            "true": len(true), "missed": sorted(true - said), "wrong": sorted(said - true)}


def show_verdicts(crawl) -> None:
    from frontier.models import SiteVerdict

    for verdict in SiteVerdict.objects.filter(crawl=crawl).select_related("site"):
        evidence = verdict.evidence
        print(f"   {verdict.site.name}: {'bilingual' if verdict.bilingual else 'no'} {evidence.get('languages')} "
              f"page {evidence.get('page')} ({evidence.get('page_language')})")
        for page in evidence.get("pages", []):
            print(f"      read {page.get('url')} score {page.get('score')} -> {page.get('language')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="four seeds, budget 60, COBFC and BFS")
    parser.add_argument("--budget", type=int)
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--strategies", default="cobfc,bfs")
    parser.add_argument("--show", action="store_true", help="print every verdict's evidence")
    args = parser.parse_args()
    budget = args.budget or (60 if args.quick else 500)
    root = real_web_dir()
    if root is None:
        print("no real development web (REALWEB_DIR, /work/realweb, shared/data/real-sites): nothing to measure")
        print("RESULT cobfc_site_p=0 cobfc_site_r=0 cobfc_fetched=0 bfs_site_p=0 bfs_site_r=0 bfs_judged=0")
        return
    with tempfile.TemporaryDirectory(prefix="site_discovery_") as tmp:
        configure(Path(tmp), args.batch)
        from bench.support.proxied_web import proxied_test_web
        from crawlweb.testweb.generator import generate_web

        web = generate_web(seed=1, size=2, pages_per_site=2)
        with proxied_test_web(web, root) as server:
            sites = server.web.real_sites.truth_sites
            truth = {host: bool(site.get("bilingual_sr_en")) for site in sites for host in site["hosts"]}
            seeds = seeds_of(root, sites, args.quick)
            print(f"real web {root}: {len(sites)} sites ({sum(truth.values())} sr-en bilingual hosts), "
                  f"{len(seeds)} seeds, budget {budget}, batch {args.batch}")
            result = {}
            for strategy in args.strategies.split(","):
                crawl, seconds = run_crawl(strategy, strategy, seeds, budget)
                scores = site_scores(crawl, truth)
                result[strategy] = (scores, crawl.pages_fetched)
                print(f"{strategy:6s} {crawl.state}, {crawl.pages_fetched}/{budget} pages in {seconds:.0f} s; "
                      f"judged {scores['judged']} sites, bilingual said {scores['said']}, right {scores['found']} "
                      f"of {scores['true']}: P {scores['p']:.3f} R {scores['r']:.3f}")
                print(f"       missed {scores['missed']}; wrong {scores['wrong']}")
                if args.show:
                    show_verdicts(crawl)
                if crawl.last_error:
                    print(f"       last error: {crawl.last_error[:300]}")
    parts = []
    for strategy, (scores, fetched) in result.items():
        parts += [f"{strategy}_site_p={scores['p']:.4f}", f"{strategy}_site_r={scores['r']:.4f}",
                  f"{strategy}_fetched={fetched}", f"{strategy}_judged={scores['judged']}"]
    print("RESULT " + " ".join(parts))


if __name__ == "__main__":
    main()
