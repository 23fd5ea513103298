"""Benchmark: discovery and pairing on the real development web (Issue 16).

    .venv/bin/python bench/realweb.py [--quick] [--web DIR] [--budget N] [--strategies bfs,fc,obfc,cobfc]

The web: --web DIR, else REAL_WEB_DIR, else <SHARED_DATA_DIR>/real-web when it exists, else
<SHARED_DATA_DIR>/real-sites (8 sites, no hubs).  It is served by the project's test web server
(real HTTP on 127.0.0.1 through its proxy), and a throw-away embedded project (SQLite in a
temporary VAR_DIR, synchronous jobs, every follow-up on: detector, classifiers, pairing) crawls it:

1. Each strategy from the same seeds (the web's hubs plus a few sites when it has hubs, else every
   site's root: nothing links the bare real sites) with the same page budget.  Site P/R: the
   crawl's own stored verdicts (SiteVerdict.bilingual: detector, page languages and kept pairs
   combined by frontier.site_verdicts), against truth's bilingual_sr_en
   (bench/support/realweb_sites.py, which also says why each missed site was missed).
2. A full-coverage breadth-first crawl (every site's root a seed, a budget above the web's size),
   which checks and fetches the deep-page guesses of its last pass itself and passes again.  Pair P/R: the
   kept sr–en pairs against truth's parallel_pairs.  Truth also says which of those are
   translations (parallel_pairs_translated, or a pair_status without "partial"/"untranslated");
   the others (partial, boilerplate only, a side left untranslated, which the filter rejects on
   purpose) are right when kept but not required: the RESULT line's pair_p counts a kept pair
   right when truth lists it, pair_r is the share of the translated pairs kept.  Both ways of
   counting the two figures are printed.
   Page-language accuracy and sr vs hr/bs/cnr accuracy (crawlweb.language.page_accuracy, as
   bench/language_id.py counts them): the full crawl's stored page languages against truth's
   page_languages (else the languages of the truth pairs' sides).
Both parts of the split (data/realweb/split.json, bench/support/realweb_parts.py) come from the
same crawls: one crawl per strategy and one full crawl over the whole web (the hubs link every
site), each part's figures then counted over its own sites, pairs and pages. dev-test is the part
the figures are reported on; features, thresholds and rules are chosen on dev-train only.
Per-site diagnostics (which sites fail and why, with each site's part) come before the RESULT line.
--quick: two small sr–en sites and one negative of each part and a smaller budget (under 60 s).
--part dev-train: one part's sites only, crawled alone (the other part's hosts excluded by the crawl
rules, its hub links left unfollowed), for tuning loops on dev-train that never look at dev-test; the
RESULT line then holds that part's keys only (``train_…`` for dev-train). Pairs and page languages are
per site, so a part's pair figures from its own crawl are those of the whole web's full crawl; its
COBFC site figures are not (the other part's sites no longer share the budget).
--strategies none: no strategy crawl (no site figures), only the full crawl's pair and language figures.

Last line: RESULT site_p=… site_r=… pair_p=… pair_r=… lid_acc=… lid_sr_vs_hbs=… train_site_p=… train_site_r=…
train_pair_p=… train_pair_r=… train_lid_acc=… train_lid_sr_vs_hbs=… render_ms_per_page=… cobfc_sites_per_100=… budget=…
(unprefixed: dev-test's; train_: dev-train's; site P/R of COBFC at the budget; pair P over all truth pairs,
R over the translated ones; render_ms_per_page: COBFC's BS Detector's wall time per page rendered in
Chromium, from its verdicts' evidence (0 when it rendered none);
cobfc_sites_per_100: truly bilingual sites COBFC found per 100 pages fetched, over the whole web.)
"""
from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.support.realweb_parts import by_part, describe, one_part, part_figures, result_line, site_parts  # noqa: E402
from bench.support.realweb_sites import (missed_site_reasons, render_cost, site_figures, stored_labels,  # noqa: E402
                                         stored_verdicts)
from bench.support.realweb_truth import Truth, load_truth, page_key, precision_recall, site_name  # noqa: E402
from crawlweb.language.page_accuracy import page_language_scores  # noqa: E402
from crawlweb.devdata import shared_data_dir  # noqa: E402
from crawlweb.testweb.realweb_split import PARTS, TEST, TRAIN  # noqa: E402

STRATEGIES = ("bfs", "fc", "obfc", "cobfc")


def web_dir(given: str | None) -> Path:
    if given:
        return Path(given)
    if os.environ.get("REAL_WEB_DIR"):
        return Path(os.environ["REAL_WEB_DIR"])
    built = shared_data_dir() / "real-web"
    return built if (built / "truth.json").exists() else shared_data_dir() / "real-sites"


def choose_subset(truth: Truth, quick: bool, parts: dict[str, str]) -> list:
    """Quick: of each part, two sr–en sites and one negative (the smallest, so the crawls stay short)."""
    sites = truth.content_sites
    if not quick:
        return sites
    chosen = []
    for part in PARTS:
        mine = [s for s in sites if parts[s.host] == part]
        bilingual = sorted((s for s in mine if s.bilingual), key=lambda s: (len(s.languages), s.host))
        negative = sorted((s for s in mine if not s.bilingual), key=lambda s: (len(s.languages), s.host))
        chosen += bilingual[:2] + negative[:1]
    return chosen


def configure(var_dir: str) -> None:
    for name in ("REDIS_URL", "DATABASE_URL", "HTTP_PROXY", "http_proxy"):
        os.environ.pop(name, None)
    os.environ.update({
        "VAR_DIR": var_dir, "DATABASE_URL": f"sqlite:///{var_dir}/bench.sqlite3", "JOBS_INPROCESS_MODE": "sync",
        "CRAWLER_HOST_INTERVAL": "0", "CRAWLER_IDLE_FINISH_SECONDS": "1", "CRAWLER_BATCH_SIZE": "16",
        "CRAWLER_WARC": "0", "CRAWLER_READ_TIMEOUT": "5", "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "crawlweb.settings",
    })
    import logging

    import django

    django.setup()
    logging.disable(logging.WARNING)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def host_rules(subset, truth: Truth) -> str:
    """Crawl rules keeping the crawl inside the chosen sites (and the hubs)."""
    allowed = {s.host for s in subset} | set(truth.hub_hosts)
    others = [s.host for s in truth.sites if s.host not in allowed]
    return "\n".join(f"exclude HOST:^{h.replace('.', '[.]')}$" for h in others)


def kept_pair_sites(crawl_id: int) -> set[str]:
    """Sites with a kept sr–en pair (a column of the table; the verdicts already count them)."""
    from evaluation.models import CandidatePair

    return {site_name(urlsplit(u).hostname or "") for u in CandidatePair.objects.filter(
        crawl_id=crawl_id, kept=True, languages_confirmed=True).values_list("source_url", flat=True)}


def fresh_hosts() -> None:
    """Hosts as a new database has them (as bench/frontier_curve.py does): the crawl before leaves
    politeness clocks, round-robin order and robots caches that change the next crawl's order."""
    from crawlweb.models import Host

    Host.objects.update(next_fetch_at=None, busy_until=None, last_served_at=None, robots={}, robots_status=None,
                        robots_expires_at=None, crawl_delay=None)


def run_strategies(strategies, seeds, budget, rules, subset, parts) -> dict:
    """Each strategy's crawl over the whole web; site P/R from its stored verdicts
    (bench/support/realweb_sites.py), for the whole web and for each part."""
    from frontier.experiment import TESTWEB_PROVIDERS, run_strategy

    config = {"random_seed": 1, "host_interval": 0, "url_rules": rules,
              "backlinks": {"providers": TESTWEB_PROVIDERS, "rate": 1000}}
    out = {}
    for strategy in strategies:
        fresh_hosts()
        run = run_strategy(strategy, seeds, budget, config, name="realweb")
        sites = site_figures(run.crawl_id, subset)
        paired = kept_pair_sites(run.crawl_id)
        out[strategy] = {"pages": run.pages_fetched, "sites": sites, "paired": paired, "p": sites.p, "r": sites.r,
                         "found_true": sites.found_true, "seconds": run.seconds, "crawl_id": run.crawl_id}
        how = " ".join(f"{k}:{n}" for k, n in sorted(sites.decided_by.items()))
        print(f"  {strategy.upper():6} pages {run.pages_fetched:5}  judged {len(sites.judged):3}  bilingual "
              f"{len(sites.found):3}  site P {sites.p:.3f} R {sites.r:.3f}  truly bilingual found "
              f"{sites.found_true:3}/{len(sites.truly)} (said yes: {how or '-'})  with kept pairs {len(paired):3}  "
              f"{run.seconds:5.1f}s")
        for part, mine in by_part(subset, parts).items():
            part_sites = site_figures(run.crawl_id, mine)
            print(f"         {part:9} site P {part_sites.p:.3f} R {part_sites.r:.3f} "
                  f"({part_sites.found_true}/{len(part_sites.truly)} sr–en sites found)")
    return out


def site_diagnostics(runs: dict, subset, parts) -> None:
    """Why COBFC missed each truly bilingual site it missed, and which negatives it called bilingual."""
    cobfc = runs.get("cobfc")
    if cobfc is None:
        return
    sites = cobfc["sites"]
    print(f"\nCOBFC's misses ({len(sites.truly - sites.found)} of {len(sites.truly)} sr–en sites):")
    for host, why in sorted(missed_site_reasons(cobfc["crawl_id"], subset, sites.found).items()):
        print(f"  {parts[host]:9} {host:52} {why}")
    part_of = {site_name(s.host): parts[s.host] for s in subset}
    for name in sorted(sites.found - sites.truly):
        print(f"  {part_of.get(name, '?'):9} wrong: {name} called bilingual")


def full_crawl(subset, rules, seeds) -> int:
    """Breadth-first over everything: every site's root a seed. The crawl itself checks and fetches the
    deep guesses of its last pass (evaluation/services/deep_rounds.py) and passes again after them."""
    from crawlweb.models import Crawl, Page
    from crawlweb.jobs.crawl_control import start_crawl

    roots = [f"http://{s.host}/" for s in subset]
    budget = 3 * sum(max(len(s.languages), 20) for s in subset) + 200
    crawl = Crawl.objects.create(name="realweb full bfs", strategy="bfs", page_budget=budget,
                                 config={"host_interval": 0, "url_rules": rules}, follow_out_of_site=True)
    start_crawl(crawl, extra_urls=list(dict.fromkeys(seeds + roots)))
    crawl.refresh_from_db()
    print(f"  full BFS: {crawl.pages_fetched} pages fetched, {Page.objects.filter(crawl=crawl).count()} stored, "
          f"{crawl.resumed_rounds} deep-page round{'s' if crawl.resumed_rounds != 1 else ''} after the end")
    return crawl.pk


def measure_pairs(crawl_id: int, subset):
    from evaluation.models import CandidatePair

    kept = {frozenset((page_key(p.source_url), page_key(p.target_url))): p for p in CandidatePair.objects.filter(
        crawl_id=crawl_id, kept=True, languages_confirmed=True)}
    hosts = {s.host for s in subset}
    found = {k for k in kept if urlsplit(next(iter(k))).hostname in hosts}
    every = set().union(*(s.pairs for s in subset)) if subset else set()
    translated = set().union(*(s.translated for s in subset)) if subset else set()
    # A kept pair that truth marks untranslated is wrong; one the filter rejected as such is no miss.
    p_all, r_all = precision_recall(found, every)
    p_tr, r_tr = precision_recall(found, translated)
    print(f"  kept sr–en pairs {len(found)}; truth pairs {len(every)} ({len(every) - len(translated)} not "
          f"translated: partial, boilerplate only, or a side left untranslated)")
    print(f"  against all truth pairs P {p_all:.3f} R {r_all:.3f};  against the translated ones P {p_tr:.3f} "
          f"R {r_tr:.3f};  RESULT: P {p_all:.3f} (a kept pair truth lists is right), R {r_tr:.3f} (of the "
          f"translated pairs, which must be found)")
    by_method = Counter(kept[k].method for k in found)
    right_by_method = Counter(kept[k].method for k in found & translated)
    print("  kept by method: " + ", ".join(f"{m} {right_by_method[m]}/{n}" for m, n in by_method.most_common()))
    return p_all, r_tr, found


def measure_languages(crawl_id: int, subset):
    """lid_acc and lid_sr_vs_hbs (crawlweb.language.page_accuracy) of the full crawl's stored labels."""
    predicted = {}
    for labels in stored_labels(crawl_id).values():
        predicted.update(labels)
    truth = {u: label for s in subset for u, label in s.labels.items()}
    scores = page_language_scores(predicted, truth)
    print(f"  page language: accuracy {scores['lid_acc']:.3f} on {scores['pages']} labelled pages; "
          f"sr vs hr/bs/cnr {scores['lid_sr_vs_hbs']:.3f} on {scores['bcms_pages']}")
    right = {("none", "und"), ("sr", "sr-Latn"), ("sr", "sr-Cyrl")}  # as page_accuracy counts them
    wrong = {t: {g: n for g, n in row.items() if g != t and (t, g) not in right}
             for t, row in scores["confusion"].items()}
    print("  confusions (truth -> stored): " + "; ".join(
        f"{t} -> " + ", ".join(f"{g} {n}" for g, n in row.items()) for t, row in wrong.items() if row))
    return scores["lid_acc"], scores["lid_sr_vs_hbs"], {u: label.split("-")[0] for u, label in predicted.items()}


def diagnostics(crawl_id: int, subset, found_pairs: set, predicted_lang: dict, runs: dict, parts) -> None:
    """Per site: truth, what the crawls concluded, the pairs missed or wrong and why."""
    from evaluation.models import CandidatePair

    candidates = {frozenset((page_key(p.source_url), page_key(p.target_url))): p
                  for p in CandidatePair.objects.filter(crawl_id=crawl_id)}
    cobfc = runs.get("cobfc") or next(iter(runs.values()), None)
    print("\nPer site (pairs from the full BFS crawl; 'found': COBFC's stored verdict, +pairs: with kept pairs):")
    for s in sorted(subset, key=lambda s: (not s.bilingual, s.host)):
        name = site_name(s.host)
        mine = {k for k in found_pairs if urlsplit(next(iter(k))).hostname == s.host}
        right, wrong = mine & s.translated, mine - s.pairs
        missed = s.translated - mine
        why: Counter = Counter()
        for pair in missed:
            a, b = sorted(pair)
            if a not in predicted_lang or b not in predicted_lang:
                why[f"page not crawled ({a if a not in predicted_lang else b})"] += 1
            elif pair in candidates:
                why[f"filtered: {candidates[pair].reason[:60]}"] += 1
            else:
                langs = "–".join(sorted(predicted_lang[u] or "?" for u in pair))
                why[f"not proposed (languages {langs})"] += 1
        found = "-" if cobfc is None else ("yes" if name in cobfc["sites"].found else "") + (
            "+pairs" if name in cobfc["paired"] else "")
        status = "OK " if (s.bilingual and not missed and not wrong) or (not s.bilingual and not mine) else "BAD"
        print(f"  {status} {parts[s.host]:9} {s.host:52} {'sr-en' if s.bilingual else 'neg  '} found={found or 'no':10} "
              f"pairs right {len(right):3}/{len(s.translated):3} wrong {len(wrong):2}")
        for reason, n in why.most_common(4):
            print(f"        missed {n:3}: {reason}")
        for pair in sorted(wrong, key=sorted)[:3]:
            cand = candidates.get(pair)
            print(f"        wrong: {' ↔ '.join(sorted(pair))} ({cand.method if cand else '?'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--web", help="the real web's folder (hosts/ + truth.json)")
    parser.add_argument("--budget", type=int, help="pages per strategy run (quick 40, full 500)")
    parser.add_argument("--strategies", default=",".join(STRATEGIES),
                        help="comma-separated (bfs,fc,obfc,cobfc), or none for the full crawl alone")
    parser.add_argument("--part", choices=PARTS,
                        help="crawl and report one part of the split only (tune on dev-train: --part dev-train)")
    parser.add_argument("--var-dir", help="keep the bench's database and files here (default: a temporary folder)")
    parser.add_argument("--sites-only", action="store_true",
                        help="the strategies' crawls and site figures only (no full crawl, no pair or language figures)")
    args = parser.parse_args()
    started = time.monotonic()
    folder = web_dir(args.web)
    truth = load_truth(folder)
    parts = site_parts(truth.content_sites)
    subset = choose_subset(truth, args.quick, parts)
    if args.part:
        subset = [s for s in subset if parts[s.host] == args.part]
    budget = args.budget or (40 if args.quick else 500)
    strategies = [s.strip().lower() for s in args.strategies.split(",") if s.strip() not in ("", "none")]
    hubs = truth.hub_hosts
    if truth.seed_urls or hubs:
        in_subset = {s.host for s in subset} | set(hubs)
        seeds = [u for u in truth.seed_urls if urlsplit(u).hostname in in_subset]
        seeds = seeds or [f"http://{h}/" for h in hubs]
        seeds += [f"http://{s.host}/" for s in subset if s.bilingual][:3]
    else:
        seeds = [f"http://{s.host}/" for s in subset]  # nothing links the bare sites: every root
    seeds = list(dict.fromkeys(seeds))
    halves = by_part(subset, parts)
    print(f"Real web {folder}: {len(subset)} sites ({sum(s.bilingual for s in subset)} sr–en), "
          f"{len(hubs)} hubs, {len(seeds)} seeds, budget {budget}; "
          + ", ".join(f"{part} {len(mine)} ({sum(s.bilingual for s in mine)} sr–en)" for part, mine in halves.items()))
    with (contextlib.nullcontext(str(Path(args.var_dir).resolve())) if args.var_dir
          else tempfile.TemporaryDirectory(prefix="bench-realweb-")) as var_dir:
        Path(var_dir).mkdir(parents=True, exist_ok=True)
        configure(var_dir)
        from bench.support.proxied_web import proxied_test_web
        from crawlweb.testweb.generator import generate_web

        rules = host_rules(subset, truth)
        # A tiny generated web beside the real one: nothing links it, the seeds never reach it.
        with proxied_test_web(generate_web(seed=3, size=8, pages_per_site=2), real_sites_dir=folder):
            print(f"\nStrategies at budget {budget} (site P/R: the crawl's stored verdicts):")
            runs = run_strategies(strategies, seeds, budget, rules, subset, parts)
            cobfc = runs.get("cobfc", {"p": 0.0, "r": 0.0, "found_true": 0, "pages": 0, "crawl_id": None})
            verdicts = ({name: v["bilingual"] for name, v in stored_verdicts(cobfc["crawl_id"]).items()}
                        if cobfc["crawl_id"] is not None else {})
            rendered, render_ms = render_cost(cobfc["crawl_id"]) if cobfc["crawl_id"] is not None else (0, 0.0)
            print(f"  COBFC rendered {rendered} pages in Chromium, {render_ms:.0f} ms per page")
            if args.sites_only:
                site_diagnostics(runs, subset, parts)
                figures = {part: part_figures(mine, verdicts, set(), None) for part, mine in halves.items()}
                line = (f"RESULT site_p={figures[TEST].site_p:.4f} site_r={figures[TEST].site_r:.4f} "
                        f"train_site_p={figures[TRAIN].site_p:.4f} train_site_r={figures[TRAIN].site_r:.4f} "
                        f"render_ms_per_page={render_ms:.4f} budget={budget}")
                print(one_part(line, args.part) if args.part else line)
                return
            print("\nFull-coverage breadth-first crawl:")
            crawl_id = full_crawl(subset, rules, seeds)
        print("  whole web:")
        _, _, found_pairs = measure_pairs(crawl_id, subset)
        _, _, predicted = measure_languages(crawl_id, subset)
        diagnostics(crawl_id, subset, found_pairs, predicted, runs, parts)
        site_diagnostics(runs, subset, parts)
        labels = {url: label for site_labels in stored_labels(crawl_id).values() for url, label in site_labels.items()}
        figures = {part: part_figures(mine, verdicts, found_pairs, labels) for part, mine in halves.items()}
    per_100 = 100 * cobfc["found_true"] / cobfc["pages"] if cobfc["pages"] else 0.0
    print("\nBy part (site figures: COBFC at the budget; pairs and page languages: the full crawl):")
    for part in (TEST, TRAIN):
        if not args.part or part == args.part:
            print(describe(part, figures[part]))
    print(f"\n{time.monotonic() - started:.1f}s")
    line = result_line(figures[TEST], figures[TRAIN], sites_per_100=per_100, budget=budget,
                       render_ms_per_page=render_ms)
    print(one_part(line, args.part) if args.part else line)


if __name__ == "__main__":
    main()
