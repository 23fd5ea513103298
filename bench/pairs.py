"""Benchmark: parallel page pairing (Pupsniffer methods) on real sites + mining speed.

    .venv/bin/python bench/pairs.py [--quick] [--no-testweb] [--truth FILE --pages FILE]

0. Unless --no-testweb: crawl the generated test web with the project itself (embedded SQLite in
   a temporary VAR_DIR, synchronous jobs, follow-up scoring) and print per-method precision/recall
   against truth()["sites"][i]["parallel_pairs"], site credibility precision at K and the top
   patterns (bench/support/pairs_testweb.py).  The RESULT line's pair figures are the test web's.

1. Pair precision/recall of each method and of all together, on the 8 real sites
   in /work/shared/data/real-sites (never tuned on), twice: with the languages of truth-pair
   pages taken from truth.json (pairing given right languages), and with every page's language
   from the project's own identifier (crawlweb.language.identify), which is what a crawl gets.
2. Pattern-mining speed on generated sites of 10k, 30k and 100k URLs (seeded
   generator with several real URL conventions), with operation counters.

Hooks for other data (``--truth FILE --pages FILE``):
  --pages: JSON Lines, one page per line:
      {"site": "host", "url": "http://…", "lang": "sr"|"en"|"sr-Latn"|…, "script": "",
       "text_length": 123, "outlinks": ["http://…"], "hreflang": {"en": "http://…"},
       "switch_links": [{"target_url": "…", "anchor_text": "", "img_src": "", "img_alt": "", "title": ""}],
       "html": "<optional>", "domain": "<optional, e.g. gov.rs>"}
  --truth: {"sites": [{"host": "…", "parallel_pairs": [[url_a, url_b], …]}]} (truth.json format;
      pairs are compared unordered).  A guessed deep URL "exists" when it is a page in --pages.
3. The filter audit (bench/support/filter_audit.py): the share of the pairs the filter removes that
   are truly non-parallel (the method's 85.40 %), on a pool of weak candidates (every Def. 1
   candidate pair, declarations, deep guesses), on the real sites (identifier languages) and on
   the test web crawl's stored pages.
Last line: RESULT pair_precision=<float> pair_recall=<float> mining_100k_s=<float>
           [filtered_nonparallel_real=<float>] filtered_real=<int> [filtered_nonparallel_testweb=<float>] filtered_testweb=<int>
           (a filtered_nonparallel_* share is printed only when the filter removed something)
(pairs: all methods together, one-to-one, after the filter; from the test web crawl, or from the
real sites with --no-testweb).
Timings are wall clock on a shared machine; the CPU column shows the process's own time.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from evaluation.pairing.switch import SwitchLink  # noqa: E402
from evaluation.pairing.deep import confirm_deep_pair  # noqa: E402
from evaluation.pairing.patterns import mine_pairs, mine_site_patterns, top_global_patterns  # noqa: E402
from evaluation.pairing.pipeline import PairingConfig, SiteInput, run_pairing  # noqa: E402
from evaluation.pairing.records import PageRecord, base_language, pattern_label  # noqa: E402
from evaluation.pairing.similarity import filter_pairs, pattern_weights  # noqa: E402
from bench.support.filter_audit import audit, report  # noqa: E402
from crawlweb.crawler.htmlparse import parse_html  # noqa: E402
from crawlweb.language.identify import identify_language  # noqa: E402


# ---------------------------------------------------------------- real sites
def page_language(url: str, html: str) -> str:
    """The language tag the crawler itself would store for this page (sr-Latn, sr-Cyrl, en, hr...)."""
    parsed = parse_html(html, url)
    guess = identify_language(parsed.text, url=url, html_lang=parsed.lang, title=parsed.title)
    return "" if guess.lang == "und" else guess.tag


def real_inputs(use_truth_languages: bool):
    from tests.evaluation.realsites import load_real_sites, site_input

    sites = load_real_sites()
    inputs, truth, exists, langs_all = [], set(), set(), {}
    for site in sites:
        langs = {url: page_language(url, html) for url, html in site.files.items()}
        if use_truth_languages:
            langs.update(site.truth_languages())  # sr–en pairs and the hr–en pairs of the hard negatives
        inputs.append(site_input(site, langs))
        truth |= {frozenset(p) for p in site.truth_pairs}
        exists |= set(site.files)
        langs_all.update(langs)
    return inputs, truth, exists, langs_all


def jsonl_inputs(pages_file: str, truth_file: str):
    by_site: dict[str, list[dict]] = defaultdict(list)
    for n, line in enumerate(Path(pages_file).read_text().splitlines(), 1):
        if line.strip():
            try:
                row = json.loads(line)
                by_site[row["site"]].append(row)
            except (ValueError, KeyError) as exc:
                raise SystemExit(f"{pages_file}:{n}: bad page line ({exc})")
    inputs, exists, langs = [], set(), {}
    for site, rows in by_site.items():
        pages = [PageRecord(r["url"], r.get("lang", ""), r.get("script", ""), int(r.get("text_length", 0)),
                            tuple(r.get("outlinks", ())), r.get("html", "")) for r in rows]
        alternates = {r["url"]: r["hreflang"] for r in rows if r.get("hreflang")}
        switches = [SwitchLink(r["url"], s["target_url"], s.get("anchor_text", ""), s.get("img_src", ""),
                               s.get("img_alt", ""), s.get("title", ""))
                    for r in rows for s in r.get("switch_links", ())]
        domain = next((r["domain"] for r in rows if r.get("domain")), None)
        inputs.append(SiteInput(site, pages, domain, alternates, switches))
        exists |= {p.url for p in pages}
        langs.update({p.url: p.lang for p in pages})
    truth = {frozenset(p) for s in json.loads(Path(truth_file).read_text())["sites"]
             for p in s.get("parallel_pairs", [])}
    return inputs, truth, exists, langs


def pr(found: set, truth: set) -> tuple[float, float, int]:
    tp = len(found & truth)
    return (tp / len(found) if found else 0.0), (tp / len(truth) if truth else 0.0), tp


def true_patterns(truth: set, langs: dict) -> set:
    """(site, pattern) of every truth pair that a Def. 1 pattern can match at all
    (the page not labelled Serbian is taken as the English side)."""
    out = set()
    for pair in truth:
        a, b = sorted(pair, key=lambda u: base_language(langs.get(u)) == "sr")
        found, _ = mine_pairs([a], [b])
        out |= {(a.split("/")[2], k) for k in found}
    return out


def pattern_pr(cands, gold: set) -> str:
    used = {(c.source_url.split("/")[2], c.pattern) for c in cands if c.pattern is not None}
    if not used:
        return f"{'-':>10}{'-':>8}"
    hit = len(used & gold)
    return f"{hit / len(used):>10.3f}{hit / len(gold) if gold else 0.0:>8.3f}"


def evaluate(inputs, truth, exists, langs, label: str):
    t0 = time.perf_counter()
    result = run_pairing(inputs, PairingConfig())
    deep = [c for g in result.deep_guesses
            if (c := confirm_deep_pair(g, g.guessed_url in exists, langs.get(g.guessed_url, "")))]
    combined = result.combined(extra=deep)
    pages = {p.url: p for s in inputs for p in s.pages}
    weights = pattern_weights(result.global_patterns, top_n=30)
    verdicts = filter_pairs(combined, pages, weights, check_structure=True)
    final = [c for c, v in verdicts if v.keep]
    elapsed = time.perf_counter() - t0
    print(f"\n== {label}: {len(inputs)} sites, {len(pages)} labelled pages, {len(truth)} true sr–en pairs "
          f"({elapsed:.2f} s)")
    print("  (pairs: P/R of page pairs; patterns: P/R of the (site, pattern) the method used against the\n"
          "   Def. 1 patterns of the true pairs — translated-slug pairs have none)")
    gold = true_patterns(truth, langs)
    print(f"{'method':<22}{'pairs':>6}{'correct':>9}{'precision':>11}{'recall':>8}{'pattern P':>10}{'R':>8}")
    rows = dict(result.by_method)
    rows["deep (confirmed)"] = deep
    rows["all (one-to-one)"] = combined
    rows["all + filter"] = final
    for name, cands in rows.items():
        found = {frozenset(c.key) for c in cands}
        p, r, tp = pr(found, truth)
        print(f"{name:<22}{len(found):>6}{tp:>9}{p:>11.3f}{r:>8.3f}{pattern_pr(cands, gold)}")
    print(f"deep guesses to check: {len(result.deep_guesses)}; script variants: {len(result.script_variants)}")
    reasons = defaultdict(int)
    for c, v in verdicts:
        if not v.keep:
            reasons[(v.reason.split(':')[0].split(' ≤')[0], frozenset(c.key) in truth)] += 1
    for (reason, was_true), n in sorted(reasons.items()):
        print(f"  filtered {n:>3} ({'true' if was_true else 'false'} pairs): {reason}")
    per_site = defaultdict(lambda: [0, 0])
    for c in final:
        per_site[c.source_url.split("/")[2]][0 if frozenset(c.key) in truth else 1] += 1
    for site in result.site_patterns.values():
        best = site.ranked()[:2]
        tops = ", ".join(f"{pattern_label(b.pattern)} C={b.local_credibility:.2f}" for b in best)
        ok, bad = per_site.get(site.site, (0, 0))
        print(f"  {site.site:<52} C(w)={site.credibility:.2f} right={ok:>2} wrong={bad:>2}  {tops}")
    print("top global patterns:", ", ".join(f"{pattern_label(g.pattern)}={g.credibility_unnormalized:.1f}"
                                             for g in top_global_patterns(result.global_patterns, 5)))
    return pr({frozenset(c.key) for c in final}, truth)


# ------------------------------------------------------------- mining speed
SECTIONS = [("vesti", "news"), ("o-nama", "about"), ("proizvodi", "products"), ("dogadjaji", "events"),
            ("kontakt", "contact"), ("usluge", "services"), ("projekti", "projects"), ("dokumenti", "documents")]
WORDS = ("beograd novi sad zakon odluka sednica budzet plan izvestaj projekat konkurs skola grad opstina "
         "ministarstvo saradnja razvoj energija voda put most zdravlje kultura sport turizam nauka").split()


def generate_site(n_urls: int, seed: int = 13) -> list[tuple[str, str]]:
    """A big bilingual site mixing real conventions: /sr/…↔/en/…, x-sr.html↔x.html,
    ?lang=sr↔?lang=en, sr.site↔en.site, /srpski/…↔/english/…; 15 % untranslated pages,
    10 % translated slugs (unpairable by URL)."""
    rng = random.Random(seed)
    urls: list[tuple[str, str]] = []
    doc = 0
    while len(urls) < n_urls:
        doc += 1
        sr_sec, en_sec = rng.choice(SECTIONS)
        slug = "-".join(rng.sample(WORDS, rng.randint(2, 4))) + f"-{doc}"
        date = f"{rng.randint(2005, 2024)}/{rng.randint(1, 12):02d}"
        style = rng.random()
        if style < 0.35:
            sr, en = f"http://www.site.rs/sr/{sr_sec}/{date}/{slug}.html", f"http://www.site.rs/en/{en_sec}/{date}/{slug}.html"
            if rng.random() < 0.5:
                en = f"http://www.site.rs/en/{sr_sec}/{date}/{slug}.html"
        elif style < 0.6:
            sr, en = f"http://www.site.rs/{sr_sec}/{slug}-sr.html", f"http://www.site.rs/{sr_sec}/{slug}.html"
        elif style < 0.8:
            sr = f"http://www.site.rs/index.php?option=article&id={doc}&lang=sr"
            en = f"http://www.site.rs/index.php?option=article&id={doc}&lang=en"
        elif style < 0.9:
            sr, en = f"http://sr.site.rs/{sr_sec}/{slug}", f"http://en.site.rs/{sr_sec}/{slug}"
        else:
            sr, en = f"http://www.site.rs/srpski/{date}/{slug}.htm", f"http://www.site.rs/english/{date}/{slug}.htm"
        if rng.random() < 0.1:
            en = en.replace(slug, f"{slug}-{rng.choice(WORDS)}-en")
        kind = rng.random()
        if kind >= 0.075:
            urls.append((sr, "sr"))
        if kind < 0.075 or kind >= 0.15:
            urls.append((en, "en"))
    return urls[:n_urls]


def mining_speed(sizes=(10_000, 30_000, 100_000)) -> float:
    print("\n== pattern mining speed (generated site, seeded)")
    print(f"{'urls':>8}{'wall s':>8}{'cpu s':>7}{'insert/url':>12}{'compare/url':>13}{'skipped buckets':>17}"
          f"{'patterns':>10}")
    last = 0.0
    for n in sizes:
        urls = generate_site(n)
        t0, c0 = time.perf_counter(), time.process_time()
        site = mine_site_patterns("site.rs", urls)
        last, cpu = time.perf_counter() - t0, time.process_time() - c0
        s = site.stats
        print(f"{n:>8}{last:>8.2f}{cpu:>7.2f}{s.index_insertions / n:>12.1f}{s.comparisons / n:>13.2f}"
              f"{s.skipped_buckets:>17}{len(site.patterns):>10}")
    print("top patterns (100k):", ", ".join(f"{pattern_label(p.pattern)} p={p.frequency} C={p.local_credibility:.3f}"
                                            for p in site.ranked()[:8]))
    return last


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smaller test web (finishes < 60 s)")
    parser.add_argument("--truth", help="truth file (truth.json format); needs --pages")
    parser.add_argument("--pages", help="pages file (JSON Lines, see the module doc); needs --truth")
    parser.add_argument("--no-testweb", action="store_true",
                        help="skip the crawl of the generated test web (RESULT pairs then come from the real sites)")
    args = parser.parse_args(argv)
    if bool(args.truth) != bool(args.pages):
        parser.error("--truth and --pages go together")
    audits = {}
    if args.pages:
        inputs = jsonl_inputs(args.pages, args.truth)
        precision, recall, _ = evaluate(*inputs, label=f"pages from {args.pages}")
        audits["pages"] = audit(*inputs)
        report(audits["pages"], f"pages from {args.pages}")
    else:
        given = real_inputs(True)
        precision, recall, _ = evaluate(*given, label="real sites, languages = truth + identifier")
        report(audit(*given), "real sites, languages = truth + identifier")
        print("NOTE: pages of truth pairs get their language from truth.json, so this row measures pairing\n"
              "      given right languages; the identifier-only row is what the crawler itself gets.")
        identified = real_inputs(False)
        evaluate(*identified, label="real sites, languages = project's identifier only")
        audits["real"] = audit(*identified)
        report(audits["real"], "real sites, languages = project's identifier only")
    if not args.no_testweb:
        from bench.support.pairs_testweb import run as run_testweb

        precision, recall, audits["testweb"] = run_testweb(args.quick)
    mining_100k = mining_speed()
    # The share is undefined when the filter removed nothing: the key is then left out (numbers only).
    extra = " ".join((f"filtered_nonparallel_{name}={figures.share_non_parallel:.4f} " if figures.filtered else "")
                     + f"filtered_{name}={figures.filtered}" for name, figures in audits.items())
    print(f"RESULT pair_precision={precision:.4f} pair_recall={recall:.4f} mining_100k_s={mining_100k:.3f} {extra}")


if __name__ == "__main__":
    main()
