"""Benchmark: do judgments make the system better? A simulated evaluator judges, the models retrain.

    .venv/bin/python bench/learning.py [--quick] [--rounds 5] [--per-round 100] [--seed 1] [--keep DIR]

1. The web: the real development web (REAL_WEB_DIR, else /work/realweb; else the 8 sites of
   shared/data/real-sites), served by the test web's loopback proxy. Its sites (bilingual and
   negative) are split at random (seeded) into *training* sites (3/5) and *held-out* sites (2/5),
   and each half is crawled fully by the project's own crawl; the training half also holds the
   generated test web's two-language sites (--generated, default 40; half-translated pairs answer p)
   so that the pool holds more candidates than one crawl of the real training sites (113) (embedded SQLite, jobs synchronous,
   budget = the half's pages). Pairing runs as a recall-oriented operator would run it (every
   Def. 1 pattern: local threshold 0, frequency 1, lowered threshold 0, θ 0 for rescue_global,
   Def. 9 over the top 200 patterns), so the candidates hold wrong pairs beside right ones and the
   filter has real false positives and false negatives.
2. Truth: a pair is parallel when truth.json lists it with status "translated". The simulated
   evaluator answers `y` for those, `p` (Pupsniffer's "partial") for status "partial" and `n` for
   "boilerplate" (only menus translated) and for everything truth.json does not list; the training
   app counts "partial" as not parallel, so the measure does too. A link is a translation link when
   its page and its target are a listed pair (any status: the link does lead to the counterpart).
3. Rounds: an *improve* evaluation of pairs (stratified by the filter's verdict; the candidates the
   one-to-one choice dropped are in the "removed" stratum, read by the filter) and of links on the
   training crawl (the labeling app's uncertainty sampling, with the promoted models as its
   probability source); the evaluator judges the first 100 pairs it has not judged before, and 100
   links: half the most uncertain, half of those on the pages the crawl's detector scored; then the
   train job (training.jobs.train) compares and promotes or rejects.
4. After each round: the pair F1 of what decides ``kept`` (the promoted classifier, else the filter)
   over the held-out crawl's candidates (with a classifier: as scoring decides, the filter's kept pairs
   whose P(parallel) is ≥ 0.5), and the link AUC of the Link Predictor in use (promoted, else shipped) over the
   held-out crawl's links, leaving out the 8 shared development sites' links (the shipped model was
   trained on them). Nothing held out is ever judged.
--quick: 9 real sites (seeded; the bilingual ones not among the 8 shared development sites, whose links the
link measure leaves out), no generated ones, 3 rounds of 60 judgments; "after_500" is then the last round.
Last line: RESULT pair_f1_before=<float> pair_f1_after_500=<float> link_auc_before=<float> link_auc_after_500=<float>
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FALLBACK_REALWEB = Path("/work/realweb")
RECALL_PAIRING = {  # what a recall-oriented operator sets (docs/explanation/parallel-pairs.md)
    "PAIRS_LOCAL_THRESHOLD": "0", "PAIRS_MIN_FREQUENCY": "1", "PAIRS_LOWERED_THRESHOLD": "0",
    "PAIRS_THETA_UNNORMALIZED": "0", "PAIRS_FILTER_TOP_N": "200", "PAIRS_DEEP_CHECKS": "0",
}


def configure(var_dir: str) -> None:
    for name in ("REDIS_URL", "DATABASE_URL", "HTTP_PROXY", "http_proxy"):
        os.environ.pop(name, None)
    os.environ.update({
        "VAR_DIR": var_dir, "DATABASE_URL": f"sqlite:///{var_dir}/bench.sqlite3", "JOBS_INPROCESS_MODE": "sync",
        "CRAWLER_HOST_INTERVAL": "0", "CRAWLER_IDLE_FINISH_SECONDS": "1", "CRAWLER_BATCH_SIZE": "32",
        "CRAWLER_WARC": "0", "CRAWLER_READ_TIMEOUT": "2", "CRAWLER_ADDRESS_POLICY": "loopback", "LOG_LEVEL": "ERROR",
        "PAIRS_RESCORE_GROWTH": "0", "TRAIN_EVERY_JUDGMENTS": "0", "DJANGO_SETTINGS_MODULE": "crawlweb.settings",
        **RECALL_PAIRING,
    })
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


@dataclass
class RealSite:
    host: str
    home: str
    pages: int
    pairs: dict  # frozenset({sr url, en url}) → "yes" | "partial" | "no" (the evaluator's answer)
    shared_dev: bool  # one of the 8 sites of shared/data/real-sites (the shipped Link Predictor saw them)
    aliases: tuple = ()  # other host names the site answers on (generated sites)


def answer_of(status: str) -> str:
    """truth.json's pair_status → the simulated evaluator's key: translated y, partial p, boilerplate n."""
    status = (status or "translated").casefold()
    return "partial" if status.startswith("partial") else "no" if status.startswith("boilerplate") else "yes"


def generated_sites(truth: dict) -> list[RealSite]:
    """The test web's generated sites with two languages: fully translated pairs y, half translated
    (menus translated, body not) p; the directory and special sites hold no pairs."""
    found = []
    for site in truth["sites"]:
        if site.get("kind") in ("directory", "special") or not site.get("pages"):
            continue
        pairs = {pair_key(*pair): "yes" for pair in site.get("parallel_pairs", [])}
        pairs |= {pair_key(*pair): "partial" for pair in site.get("half_translated_pairs", [])}
        home = next(iter(site.get("home_urls", {}).values()), f"http://{site['host']}/")
        found.append(RealSite(site["host"], home, len(site["pages"]), pairs, False, tuple(site.get("hosts") or ())))
    return found


def real_sites(directory: Path, dev_hosts: set[str]) -> list[RealSite]:
    found = []
    for site in json.loads((directory / "truth.json").read_text())["sites"]:
        if site.get("kind") == "hub" or not (directory / "hosts" / site["host"]).is_dir():
            continue  # hub pages: links only, no pairs of their own
        status = site.get("pair_status") or {}
        pairs = {pair_key(*pair): answer_of(status.get(" ".join(pair), ""))
                 for pair in site.get("parallel_pairs", [])}
        pages = site.get("n_pages") or len(site.get("page_languages") or {}) or 60
        found.append(RealSite(site["host"], site.get("home") or f"http://{site['host']}/", pages, pairs,
                              site["host"] in dev_hosts))
    return found


def crawl(name: str, sites: list[RealSite], slack: float = 1.2):
    from crawlweb.models import Crawl
    from crawlweb.jobs.crawl_control import start_crawl

    hosts = sorted({h for s in sites for h in (s.host, *s.aliases)})
    # one rule per host: a crawl's rule is capped at 1,000 characters (crawlweb.regex_safety)
    rules = "\n".join(f"allow HOST:^{re.escape(h)}$" for h in hosts)
    budget = int(sum(s.pages for s in sites) * slack) + 10
    row = Crawl.objects.create(name=name, page_budget=budget, config={"url_rules": rules})
    start_crawl(row, extra_urls=[s.home for s in sites])
    row.refresh_from_db()
    return row


def f1(predicted: list[int], truth: list[int]) -> float:
    tp = sum(p and t for p, t in zip(predicted, truth))
    fp = sum(p and not t for p, t in zip(predicted, truth))
    fn = sum(t and not p for p, t in zip(predicted, truth))
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def page_key(url: str) -> str:
    """A page as truth.json and the crawl both name it: truth lists /index.html where the crawl
    reaches the same file as /, so a folder's index page is its folder."""
    from crawlweb.crawler.urls import normalize_url

    return re.sub(r"/index\.html?$", "/", normalize_url(url))


def pair_key(source_url: str, target_url: str) -> frozenset:
    return frozenset((page_key(source_url), page_key(target_url)))


class Measure:
    """The held-out crawl's candidates and links with their truth, scored by the models in use."""

    def __init__(self, crawl_row, answers: dict, dev_hosts: set):
        from crawlweb.models import Link
        from evaluation.models import CandidatePair, SiteCredibility
        from labeling.populations import LINK_KINDS
        from labeling.uncertainty import link_contexts
        from training.learn.features import pair_features
        from evaluation.lexicon_in_use import lexicon_in_use
        from training.services.site_lines import site_lines_of

        self.pairs = list(CandidatePair.objects.filter(crawl=crawl_row).select_related("source_page", "target_page")
                          .order_by("id"))
        cred = dict(SiteCredibility.objects.filter(crawl=crawl_row).values_list("site_id", "credibility"))
        self.pair_truth = [int(answers.get(pair_key(p.source_url, p.target_url)) == "yes") for p in self.pairs]
        self.filter_kept = [int(p.kept) for p in self.pairs]
        self.read = [i for i, p in enumerate(self.pairs) if "filter_kept" in (p.scores or {})]  # the filter read it
        lines = site_lines_of(self.pairs)
        self.features = [pair_features(p, cred.get(p.site_id), lines[p.pk], lexicon_in_use()) for p in self.pairs]
        every = list(Link.objects.filter(page__crawl=crawl_row, kind__in=LINK_KINDS).select_related("page"))
        links = [link for link in every if (link.page.site.name if link.page.site_id else "") not in dev_hosts]
        if len({pair_key(link.page.url, link.target_url) in answers for link in links}) < 2:
            # only the shared development sites hold translation links (a web of those 8 alone): measured on
            # them, though the shipped Link Predictor was trained there, rather than not at all
            print("link AUC over the shared development sites' links: no other held-out site has a translation link")
            links = every
        contexts = link_contexts(link.pk for link in links)
        self.links = [contexts[link.pk] for link in links]
        self.link_truth = [int(pair_key(link.page.url, link.target_url) in answers)
                           for link in links]

    def kept(self) -> list[int]:
        from training.services.promoted import promoted

        found = promoted("pair_classifier")
        if found is None:
            return list(self.filter_kept)
        # as scoring decides with a promoted classifier (training.services.promoted.PairDecider): a second opinion on
        # the filter's kept pairs, which stay kept when P(parallel) ≥ 0.5
        kept = [0] * len(self.pairs)
        decided = found[1].keeps([self.features[i] for i in self.read], [self.filter_kept[i] for i in self.read])
        for i, keep in zip(self.read, decided):
            kept[i] = int(keep)
        return kept

    def pair_f1(self) -> float:
        return f1(self.kept(), self.pair_truth)

    def errors(self) -> tuple[int, int]:
        """(false positives, false negatives) of what decides ``kept``."""
        kept = self.kept()
        return (sum(k and not t for k, t in zip(kept, self.pair_truth)),
                sum(t and not k for k, t in zip(kept, self.pair_truth)))

    def link_auc(self) -> float:
        from sklearn.metrics import roc_auc_score

        from training.services.promoted import link_predictor

        return float(roc_auc_score(self.link_truth, link_predictor().predict_proba(self.links)))


def judge_round(what: str, crawl_row, bot, seed: int, per_round: int, answer_of_item, *, stratify_by="verdict",
                sample_size: int | None = None, only=None) -> int:
    """An improve evaluation drawn by the labeling app; the evaluator judges its first ``per_round``
    items that it has not judged before (uncertainty sampling offers the same items again until a
    new model is promoted) and, with ``only``, that ``only(item)`` accepts."""
    from labeling.creation import create_evaluation
    from labeling.models import Assignment, Judgment

    field = {"pairs": "pair_id", "links": "link_id"}[what]
    done = set(Judgment.objects.filter(assignment__evaluator=bot).values_list(f"assignment__item__{field}", flat=True))
    evaluation = create_evaluation(name=f"{what} round {seed} by {stratify_by}", what=what, crawls=[crawl_row],
                                   stratify_by=stratify_by, sample_size=sample_size or per_round + len(done),
                                   seed=seed, overlap=0.0, purpose="improve", evaluators=[bot])
    fresh = [a for a in Assignment.objects.filter(evaluation=evaluation).select_related(
        "item__pair", "item__link__page").order_by("order")
        if getattr(a.item, field) not in done and (only is None or only(a.item))][:per_round]
    Judgment.objects.bulk_create([Judgment(assignment=a, verdict=answer_of_item(a.item)) for a in fresh])
    return len(fresh)


def detector_pages(crawl_row) -> set[int]:
    """The pages whose links the crawl's detector scored (each verdict's page and the pages it read)."""
    from crawlweb.models import Page
    from frontier.models import SiteVerdict

    pages, urls = set(), set()
    for page_id, evidence in SiteVerdict.objects.filter(crawl=crawl_row).values_list("page_id", "evidence"):
        pages.add(page_id)
        urls |= {p.get("url") for p in (evidence or {}).get("pages", []) if isinstance(p, dict)}
    return pages | set(Page.objects.filter(crawl=crawl_row, url__in=urls - {None}).values_list("id", flat=True))


def judge_links(crawl_row, bot, seed: int, per_round: int, answer_of_item, read_by_detector: set[int]) -> int:
    """Half the round's links where the Link Predictor in use is least sure, half of the links the
    crawl's detector scored (in the evaluation's random order): what the detector uses is judged too,
    not only the uncertain links on which the promotion would otherwise be decided."""
    uncertain = judge_round("links", crawl_row, bot, seed, per_round // 2, answer_of_item)
    from crawlweb.models import Link

    population = Link.objects.filter(page__crawl=crawl_row).count()  # a size ≥ the population: all, in random order
    return uncertain + judge_round("links", crawl_row, bot, seed, per_round - uncertain, answer_of_item,
                                   stratify_by="method", sample_size=population,
                                   only=lambda item: item.link.page_id in read_by_detector)


def pool_summary(label: str, pairs, truth: list[int]) -> str:
    kept = [int(p.kept) for p in pairs]
    fp = sum(k and not t for k, t in zip(kept, truth))
    fn = sum(t and not k for k, t in zip(kept, truth))
    return (f"{label}: {len(pairs)} candidates, {sum(truth)} parallel; the filter keeps {sum(kept)} "
            f"({fp} wrongly), removes {len(pairs) - sum(kept)} ({fn} wrongly)")


def split_sites(sites: list[RealSite], seed: int, quick: bool) -> dict[str, list[RealSite]]:
    """Bilingual and negative sites shuffled apart, each kind cut 3/5 : 2/5 (quick: 6 bilingual, none of the
    8 shared development sites, and 3 negative)."""
    rng = random.Random(seed)
    halves = {"training": [], "held-out": []}
    for kind in (True, False):
        group = sorted((s for s in sites if bool(s.pairs) == kind), key=lambda s: s.host)
        if quick and kind:  # the link measure leaves the shared development sites out: a quick held-out
            group = [s for s in group if not s.shared_dev] or group  # half of only those has no AUC
        rng.shuffle(group)
        group = group[:(6 if kind else 3)] if quick else group
        cut = (len(group) * 3 + 4) // 5
        halves["training"] += group[:cut]
        halves["held-out"] += group[cut:]
    return halves


def run(args) -> dict:
    from django.contrib.auth.models import User

    from crawlweb.devdata import real_web_dir, shared_data_dir
    from crawlweb.testweb.generator import generate_web
    from crawlweb.testweb.server import TestWebServer
    from evaluation.models import CandidatePair
    from training.jobs import request_training
    from training.models import TrainedModel, TrainingRun

    dev = Path(shared_data_dir()) / "real-sites"
    dev_hosts = {s["host"] for s in json.loads((dev / "truth.json").read_text())["sites"]}
    web_dir = next((d for d in (real_web_dir(), FALLBACK_REALWEB, dev) if (d / "truth.json").is_file()))
    sites = real_sites(web_dir, dev_hosts)
    halves = split_sites(sites, args.seed, args.quick)
    web = generate_web(seed=args.seed, size=max(1, args.generated), pages_per_site=args.generated_pages)
    generated = generated_sites(web.truth()) if args.generated else []
    halves["training"] += generated  # the test web beside the real sites: a pool 500 judgments can be spent on
    answers = {key: answer for s in sites + generated for key, answer in s.pairs.items()}
    server = TestWebServer(web, host="127.0.0.1", port=0, real_sites_dir=web_dir)
    server.start()
    os.environ["HTTP_PROXY"] = os.environ["http_proxy"] = server.proxy_url
    os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost,::1"
    t0 = time.perf_counter()
    crawls = {name: crawl(f"learning {name}", group) for name, group in halves.items()}
    server.stop()
    crawl_s = time.perf_counter() - t0
    measure = Measure(crawls["held-out"], answers, {h.removeprefix("www.") for h in dev_hosts} | dev_hosts)
    train_crawl = crawls["training"]
    train_pairs = list(CandidatePair.objects.filter(crawl=train_crawl))
    print(f"== {web_dir}: {sum(bool(s.pairs) for s in sites)} bilingual + {sum(not s.pairs for s in sites)} negative "
          f"sites + {len(generated)} generated; training {len(halves['training'])} sites, held out {len(halves['held-out'])}; crawled "
          f"{train_crawl.pages_fetched} + {crawls['held-out'].pages_fetched} pages in {crawl_s:.1f} s")
    print(pool_summary("training crawl", train_pairs,
                       [int(answers.get(pair_key(p.source_url, p.target_url)) == "yes") for p in train_pairs]))
    print(pool_summary("held-out crawl", measure.pairs, measure.pair_truth)
          + f"; {len(measure.links)} links ({sum(measure.link_truth)} translation links)")
    bot = User.objects.create_user("simulated-evaluator")
    read_by_detector = detector_pages(train_crawl)

    def pair_answer(item) -> str:
        return answers.get(pair_key(item.pair.source_url, item.pair.target_url), "no")

    def link_answer(item) -> str:
        link = item.link
        return "yes" if pair_key(link.page.url, link.target_url) in answers else "no"

    figures = {"pair_f1": [measure.pair_f1()], "link_auc": [measure.link_auc()]}
    print(f"{'judgments':>10}{'pair F1':>9}{'FP':>5}{'FN':>5}{'link AUC':>10}  models in use")
    print(f"{0:>10}{figures['pair_f1'][0]:>9.3f}{measure.errors()[0]:>5}{measure.errors()[1]:>5}"
          f"{figures['link_auc'][0]:>10.3f}  the filter, the shipped Link Predictor")
    judged = 0
    for round_no in range(1, args.rounds + 1):
        judged += judge_round("pairs", train_crawl, bot, round_no, args.per_round, pair_answer)
        judge_links(train_crawl, bot, round_no, args.per_round, link_answer, read_by_detector)
        run_row = request_training(TrainingRun.Trigger.BUTTON)
        run_row.refresh_from_db()
        if run_row.error:
            print(run_row.error)
        figures["pair_f1"].append(measure.pair_f1())
        figures["link_auc"].append(measure.link_auc())
        states = "; ".join(f"{kind}: " + (f"v{s['version']} {s['state']}" if "version" in s else "skipped")
                           for kind, s in run_row.summary.items() if kind != "detector_threshold")
        fp, fn = measure.errors()
        print(f"{judged:>10}{figures['pair_f1'][-1]:>9.3f}{fp:>5}{fn:>5}{figures['link_auc'][-1]:>10.3f}  {states}")
    for m in TrainedModel.objects.order_by("kind", "version"):
        print(f"  {m.kind} v{m.version} {m.state}: {m.reason}")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=None, help="default 5 (quick: 3)")
    parser.add_argument("--per-round", type=int, default=None, help="judgments per round, default 100 (quick: 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--generated", type=int, default=None,
                        help="test-web sites generated beside the real training sites, default 40 (quick: 0)")
    parser.add_argument("--generated-pages", type=int, default=8, help="pages per language of a generated site")
    parser.add_argument("--keep", type=Path, default=None, help="copy the bench's SQLite database here")
    args = parser.parse_args()
    args.rounds = args.rounds or (3 if args.quick else 5)
    args.per_round = args.per_round or (60 if args.quick else 100)
    args.generated = (0 if args.quick else 40) if args.generated is None else args.generated
    started = time.perf_counter()
    memory = Path("/dev/shm")  # SQLite commits on a shared disk cost ~20 ms each; in memory they are free
    with tempfile.TemporaryDirectory(prefix="bench-learning-", dir=memory if memory.is_dir() else None) as var_dir:
        configure(var_dir)
        figures = run(args)
        if args.keep:
            shutil.copy(Path(var_dir) / "bench.sqlite3", args.keep)
    print(f"total {time.perf_counter() - started:.1f} s")
    after = min(len(figures["pair_f1"]) - 1, 500 // args.per_round)
    print(f"RESULT pair_f1_before={figures['pair_f1'][0]:.4f} pair_f1_after_500={figures['pair_f1'][after]:.4f} "
          f"link_auc_before={figures['link_auc'][0]:.4f} link_auc_after_500={figures['link_auc'][after]:.4f}")


if __name__ == "__main__":
    main()
