"""Why each translated truth pair of the real development web was not kept: a diagnosis of a kept bench run.

    .venv/bin/python scripts/realweb_pair_misses.py --var-dir DIR [--web DIR] [--part dev-train] [--crawl ID]
        [--wrong] [--json FILE]

Reads the database bench/realweb.py left in ``--var-dir`` (run it with ``--var-dir DIR``; tune with
``--part dev-train``), its full breadth-first crawl (the last crawl named "realweb full bfs", or
``--crawl``), and truth (``--web``, else REAL_WEB_DIR). Each translated truth pair of the part's
sites that is not kept gets one cause, the first that holds:

- ``not stored``: a side was never fetched (or not with a 2xx answer);
- ``language``: a side is stored in another language than its truth (identification's miss);
- ``not proposed``: no method proposed the two pages together (with what the sides were paired with);
- ``filter``: the filter removed it (its reason, and the figures the body check read);
- ``one-to-one``: the filter kept it but a page of it went to a better-scored rival (which);
- ``classifier``: a promoted pair classifier removed what the filter kept.

``--wrong`` also lists the kept pairs truth does not list. Counts by cause and by site come last.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.support.realweb_parts import site_parts  # noqa: E402
from bench.support.realweb_truth import load_truth, page_key  # noqa: E402


def setup(var_dir: Path) -> None:
    for name in ("REDIS_URL", "DATABASE_URL"):
        os.environ.pop(name, None)
    os.environ.update({"VAR_DIR": str(var_dir), "DATABASE_URL": f"sqlite:///{var_dir}/bench.sqlite3",
                       "JOBS_INPROCESS_MODE": "sync", "LOG_LEVEL": "WARNING",
                       "DJANGO_SETTINGS_MODULE": "crawlweb.settings"})
    import django

    django.setup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--var-dir", required=True, type=Path)
    parser.add_argument("--web", type=Path, default=os.environ.get("REAL_WEB_DIR"))
    parser.add_argument("--part", default="dev-train")
    parser.add_argument("--crawl", type=int)
    parser.add_argument("--wrong", action="store_true", help="also list the kept pairs truth does not list")
    parser.add_argument("--json", type=Path, help="write the misses as JSON here")
    args = parser.parse_args()
    web = args.web or Path("/work/shared/data/real-web")
    truth = load_truth(Path(web))
    parts = site_parts(truth.content_sites)
    sites = [s for s in truth.content_sites if parts[s.host] == args.part]
    setup(args.var_dir.resolve())
    from crawlweb.models import Crawl, Page
    from evaluation.models import CandidatePair
    from frontier.models import Target

    crawl = (Crawl.objects.get(pk=args.crawl) if args.crawl
             else Crawl.objects.filter(name="realweb full bfs").order_by("-id").first())
    pages = {}
    for page in Page.objects.filter(crawl=crawl, status_code__gte=200, status_code__lt=300).only(
            "id", "url", "final_url", "language"):
        for url in (page.url, page.final_url):
            pages.setdefault(page_key(url), page)
    by_id = {p.pk: p for p in pages.values()}
    for url, page_id in Target.objects.filter(crawl=crawl, page_id__in=list(by_id)).values_list("url", "page_id"):
        pages.setdefault(page_key(url), by_id[page_id])
    candidates = {}
    partners: dict[str, list] = defaultdict(list)
    for cand in CandidatePair.objects.filter(crawl=crawl):
        key = frozenset((page_key(cand.source_url), page_key(cand.target_url)))
        candidates[key] = cand
        for side in key:
            partners[side].append(cand)
    kept = {k for k, c in candidates.items() if c.kept and c.languages_confirmed}
    causes: Counter = Counter()
    per_site: dict[str, Counter] = defaultdict(Counter)
    rows = []
    for site in sites:
        for pair in sorted(site.translated - kept, key=sorted):
            a, b = sorted(pair)
            cause, detail = diagnose(pair, site, pages, candidates, partners)
            causes[cause] += 1
            per_site[site.host][cause] += 1
            rows.append({"site": site.host, "pair": [a, b], "cause": cause, "detail": detail})
            print(f"{cause:12} {a} ↔ {b}\n             {detail}")
    if args.wrong:
        every = set().union(*(s.pairs for s in sites))
        hosts = {s.host for s in sites}
        from urllib.parse import urlsplit
        for key in sorted(kept - every, key=sorted):
            if urlsplit(next(iter(key))).hostname in hosts:
                cand = candidates[key]
                print(f"WRONG kept   {' ↔ '.join(sorted(key))} ({cand.method}; {cand.reason[:80]})")
    total = sum(len(s.translated) for s in sites)
    found = sum(len(s.translated & kept) for s in sites)
    print(f"\n{args.part}: {found} of {total} translated pairs kept; missed {total - found}: "
          + ", ".join(f"{cause} {n}" for cause, n in causes.most_common()))
    for host, counts in sorted(per_site.items(), key=lambda item: -sum(item[1].values())):
        print(f"  {host:55} " + ", ".join(f"{cause} {n}" for cause, n in counts.most_common()))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")


def diagnose(pair, site, pages, candidates, partners) -> tuple[str, str]:
    for url in sorted(pair):
        if url not in pages:
            return "not stored", f"{url} was not stored"
    for url in sorted(pair):
        expected, stored = site.languages.get(url, ""), pages[url].language.split("-")[0]
        if expected and stored != expected:
            return "language", f"{url} stored as {pages[url].language or '?'}, truth {expected}"
    cand = candidates.get(pair)
    if cand is None:
        others = []
        for url in sorted(pair):
            with_it = [c for c in partners.get(url, ()) if c.kept] or partners.get(url, [])[:2]
            others += [f"{url.rsplit('/', 1)[-1] or url} with {other_side(c, url)} ({c.method}, "
                       f"{'kept' if c.kept else 'removed'})" for c in with_it[:2]]
        return "not proposed", "; ".join(others) or "neither side is in any candidate pair"
    scores = cand.scores or {}
    figures = ", ".join(f"{k}={scores[k]}" for k in ("body_coverage", "aligned_share", "alignment_score",
                                                      "length_ratio", "body_known_words") if k in scores)
    if "classifier_probability" in scores and scores.get("filter_kept") and not cand.kept:
        return "classifier", f"{cand.reason[:120]} [{figures}]"
    if scores.get("one_to_one_dropped"):
        rivals = [f"{other_side(c, url)} ({c.method})" for url in pair for c in partners.get(url, ())
                  if c.kept and c is not cand]
        return "one-to-one", f"{cand.method}; rivals kept: {'; '.join(rivals[:3])} [{figures}]"
    return "filter", f"{cand.method}: {cand.reason[:160]} [{figures}]"


def other_side(cand, url: str) -> str:
    a, b = page_key(cand.source_url), page_key(cand.target_url)
    return b if a == url else a


if __name__ == "__main__":
    main()
