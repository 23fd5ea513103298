"""bench/pairs.py --testweb: the whole pipeline on a crawl of the generated test web.

A throw-away embedded project (SQLite in a temporary VAR_DIR, jobs synchronous, no Redis) crawls
the test web through its loopback proxy exactly as a user's crawl does: the follow-up scores each
site as its pages arrive (evaluation.followup → score_site → check_deep_pages), and the crawl-wide
passes (score_crawl as the crawl grows and when it finishes) give every site the same global
credibility; nothing is scored by hand.  Pairs are then compared with
truth()["sites"][i]["parallel_pairs"] (unordered, URLs normalized like the crawler's):
- per method: every pair the method proposed (CandidatePair.methods), before the filter;
- "all (one-to-one)": the pairs chosen one-to-one; "all + filter": those the filter kept.
Recall is over every true pair of the web, so pages the crawl did not reach count as missed.
Then the filter audit (bench/support/filter_audit.py) on the crawled sites' stored pages.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from bench.support.filter_audit import audit, report

METHODS = ("hreflang", "switch", "local", "rescue_global", "rescue_domain", "deep", "content")


def _configure(var_dir: str) -> None:
    for name in ("REDIS_URL", "DATABASE_URL", "HTTP_PROXY", "http_proxy"):
        os.environ.pop(name, None)
    os.environ.update({
        "VAR_DIR": var_dir, "DATABASE_URL": f"sqlite:///{var_dir}/bench.sqlite3", "JOBS_INPROCESS_MODE": "sync",
        "CRAWLER_HOST_INTERVAL": "0", "CRAWLER_IDLE_FINISH_SECONDS": "1", "CRAWLER_BATCH_SIZE": "32",
        "CRAWLER_WARC": "0", "CRAWLER_READ_TIMEOUT": "5", "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "crawlweb.settings",
    })
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _pr(found: set, truth: set) -> tuple[float, float, int]:
    tp = len(found & truth)
    return (tp / len(found) if found else 0.0), (tp / len(truth) if truth else 0.0), tp


def run(quick: bool):
    """(pair precision, pair recall, filter audit) of a crawl of the test web."""
    root = Path(__file__).resolve().parents[2]  # the repository (this file is bench/support/…)
    sys.path.insert(0, str(root))
    with tempfile.TemporaryDirectory(prefix="bench-pairs-") as var_dir:
        _configure(var_dir)
        return _crawl_and_measure(quick)


def _crawl_and_measure(quick: bool) -> tuple[float, float]:
    from crawlweb.crawler.urls import normalize_url
    from crawlweb.models import Crawl, Site
    from crawlweb.jobs.crawl_control import start_crawl
    from crawlweb.testweb.generator import generate_web
    from crawlweb.testweb.server import TestWebServer
    from evaluation.models import (
        CandidatePair,
        ScriptVariant,
        SiteCredibility,
        UrlPattern,
    )
    from evaluation.models import CrawlScoring
    from evaluation.services.config import PairsSettings
    from evaluation.services.inputs import canonical_site_ids, crawl_sites, load_site

    size, per_site = (16, 3) if quick else (40, 12)
    web = generate_web(seed=7, size=size, pages_per_site=per_site, slow_delay_s=0.2)
    server = TestWebServer(web, host="127.0.0.1", port=0)
    server.start()
    try:
        os.environ["HTTP_PROXY"] = os.environ["http_proxy"] = server.proxy_url
        os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost,::1"
        truth = web.truth()
        # Left out: the special site (slow and oversized pages); with --quick also the sites whose
        # robots.txt asks a 1 s Crawl-delay (politeness makes them the slowest part of the run).
        skipped = [s for s in truth["sites"] if s["kind"] == "special" or (quick and s["robots"] == "crawl-delay")]
        rules = "\n".join(f"exclude HOST:^{h.replace('.', '[.]')}$" for s in skipped for h in s["hosts"])
        homes = [u for s in truth["sites"] if s not in skipped and s["kind"] != "directory"
                 for u in s["home_urls"].values()]
        truth = {"sites": [s for s in truth["sites"] if s not in skipped]}
        budget = 4 * len(homes) * per_site
        crawl = Crawl.objects.create(name="bench testweb", page_budget=budget, config={"url_rules": rules})
        t0 = time.perf_counter()
        start_crawl(crawl, extra_urls=homes)  # sync jobs: returns when the crawl and its scoring are done
        crawled_s = time.perf_counter() - t0
        crawl.refresh_from_db()
        served = server.requests
    finally:
        server.stop()
    true_pairs = {frozenset(normalize_url(u) for u in p) for s in truth["sites"] for p in s["parallel_pairs"]}
    pairs = list(CandidatePair.objects.filter(crawl=crawl))
    passes = CrawlScoring.objects.get(crawl=crawl)
    print(f"\n== test web crawl (seed 7, {size} sites, {per_site} pages per language): {crawl.pages_fetched} fetches "
          f"in {crawled_s:.1f} s, scored by the crawl's own follow-ups ({passes.passes} crawl-wide passes, the last "
          f"at {passes.pages_at_last_pass} pages); {len(true_pairs)} true sr–en pairs"
          f" ({len(skipped)} sites left out: {', '.join(s['host'] for s in skipped)})")
    print(f"{'method':<22}{'pairs':>6}{'correct':>9}{'precision':>11}{'recall':>8}")
    rows = {m: {frozenset((p.source_url, p.target_url)) for p in pairs if m in p.methods} for m in METHODS}
    rows["all (one-to-one)"] = {frozenset((p.source_url, p.target_url)) for p in pairs
                                if not p.reason.startswith("one-to-one")}
    rows["all + filter"] = kept = {frozenset((p.source_url, p.target_url)) for p in pairs if p.kept}
    for name, found in rows.items():
        p, r, tp = _pr(found, true_pairs)
        print(f"{name:<22}{len(found):>6}{tp:>9}{p:>11.3f}{r:>8.3f}")
    heads = [r for r in served if r.method == "HEAD"]
    busy = sum(r.monotonic_end - r.monotonic for r in served)
    print(f"requests served: {len(served)} ({len(heads)} HEAD checks of deep-page guesses), "
          f"server time {busy:.1f} s")
    filtered = [p for p in pairs if not p.kept and not p.reason.startswith("one-to-one")]
    wrong_filtered = sum(frozenset((p.source_url, p.target_url)) not in true_pairs for p in filtered)
    print(f"filtered {len(filtered)} pairs, {wrong_filtered} of them truly non-parallel; "
          f"script variants stored: {ScriptVariant.objects.filter(crawl=crawl).count()}")
    bilingual = {s["host"].removeprefix("www.") for s in truth["sites"] if s["bilingual_sr_en"]}
    ranking = [c.site.name for c in SiteCredibility.objects.filter(crawl=crawl).select_related("site")
               .order_by("-credibility", "site__name")]
    k = len(bilingual)
    print(f"site credibility: precision at K={k} (bilingual sites) = {len(set(ranking[:k]) & bilingual) / k:.3f}")
    top = UrlPattern.objects.global_rows(crawl.pk).order_by("-global_credibility_unnormalized")[:8]
    print("top patterns (⟨sr unit, en unit⟩, C(k) normalized / Σ N·C, sites):",
          ", ".join(f"{g.label}={g.global_credibility:.3f}/{g.global_credibility_unnormalized:.1f}/{g.sites}"
                    for g in top))
    for p in [p for p in pairs if p.kept and frozenset((p.source_url, p.target_url)) not in true_pairs][:5]:
        print(f"  wrong: {p.method} {p.pattern_label} {p.source_url} ↔ {p.target_url}")
    precision, recall, _ = _pr(kept, true_pairs)
    cfg = PairsSettings.current()
    loaded = [load_site(crawl.pk, site, cfg.group_max_sites, structure=True)
              for site in Site.objects.filter(pk__in=canonical_site_ids(crawl.pk, crawl_sites(crawl.pk),
                                                                         cfg.group_max_sites))]
    inputs = [site.site_input for site in loaded if site.pages]
    langs = {url: lang for site in loaded for url, lang in site.languages_of.items()}
    figures = audit(inputs, true_pairs, set(langs), langs)
    report(figures, "test web crawl (stored pages: text and tag signatures)")
    return precision, recall, figures
