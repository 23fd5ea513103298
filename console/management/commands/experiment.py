"""python manage.py experiment --strategies FC,OBFC,COBFC --budget N (--seeds FILE | --testweb [--size S]) --out DIR"""
from __future__ import annotations

import json
import os
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from frontier.crawl_progress import display_for, watching
from frontier.experiment import TESTWEB_PROVIDERS, compare, ratios, write_outputs
from frontier.strategies.registry import strategy_classes


def testweb_seeds(truth: dict, count: int) -> list[str]:
    """A fixed seed list: the home pages of the first ``count`` bilingual sites of the test web
    (the paper starts from known bilingual sites; directories would hand every site to every strategy)."""
    homes = [next(iter(site["home_urls"].values())) for site in truth["sites"] if site["bilingual_sr_en"]]
    return homes[:count]


class Command(BaseCommand):
    help = "Run crawl strategies on the same seeds and budget; write a CSV and a PNG of bilingual sites found."

    def add_arguments(self, parser):
        parser.add_argument("--strategies", default="FC,OBFC,COBFC")
        parser.add_argument("--budget", type=int, default=300)
        parser.add_argument("--seeds", help="file of seed URLs, one per line")
        parser.add_argument("--testweb", action="store_true", help="crawl the bundled test web (started here)")
        parser.add_argument("--size", type=int, default=400,
                            help="test web sites; keep it well above what the budget can reach, or every "
                                 "strategy ends up fetching the same sites and the order cannot matter")
        parser.add_argument("--pages-per-site", type=int, default=6)
        parser.add_argument("--web-seed", type=int, default=5)
        parser.add_argument("--seed-count", type=int, default=2)
        parser.add_argument("--config", default="{}", help="JSON merged into every crawl's config")
        parser.add_argument("--out", default="var/experiment")
        parser.add_argument("--batch-size", type=int, default=4,
                            help="Targets leased per crawl step (CRAWLER_BATCH_SIZE) during the runs: small, so the "
                                 "frontier order decides nearly every fetch, as in the paper's one-link-at-a-time loop")

    def handle(self, *args, **opts):
        strategies = [s.strip().lower() for s in opts["strategies"].split(",") if s.strip()]
        unknown = set(strategies) - set(strategy_classes())
        if unknown:
            raise CommandError(f"unknown strategies {sorted(unknown)}; known: {sorted(strategy_classes())}")
        config = {"random_seed": 1, **json.loads(opts["config"])}
        if opts["batch_size"] < 1:
            raise CommandError("--batch-size must be at least 1")
        settings.CRAWLER_BATCH_SIZE = opts["batch_size"]
        if opts["testweb"]:
            runs = self._on_testweb(strategies, config, opts)
        elif opts["seeds"]:
            seeds = [line.strip() for line in Path(opts["seeds"]).read_text().splitlines()
                     if line.strip() and not line.startswith("#")]
            runs = compare(strategies, seeds, opts["budget"], config, watch=self._watch)
        else:
            raise CommandError("give --seeds FILE or --testweb")
        csv_path, png_path = write_outputs(runs, Path(opts["out"]))
        for run in runs:
            truly = "" if run.truly_bilingual is None else f", truly bilingual {run.truly_bilingual}"
            self.stdout.write(f"{run.strategy.upper():6} pages {run.pages_fetched:5}  bilingual sites "
                              f"{run.bilingual_found:4}{truly}  per page {run.per_page:.4f}  "
                              f"detector pages {run.detector_pages}  {run.seconds:.1f}s")
        with_truth = any(run.truly_bilingual is not None for run in runs)
        if with_truth:
            for key, value in ratios(runs, "verdicts_per_page").items():
                self.stdout.write(f"ratio of detector verdicts {key} = {value:.3f}")
        for key, value in ratios(runs).items():
            label = "ratio of truly bilingual sites" if with_truth else "ratio"
            self.stdout.write(f"{label} {key} = {value:.3f}")
        self.stdout.write(f"wrote {csv_path} and {png_path}")
        query = "&".join(f"crawl={run.crawl_id}" for run in runs)
        self.stdout.write(f"dashboard: {reverse('frontier:harvest')}?{query}")
        self.runs = runs

    def _watch(self, crawl):
        """Each strategy's crawl shows its progress while it runs (a live line on a terminal)."""
        return watching(crawl, display_for(self.stdout, crawl.name))

    def _on_testweb(self, strategies, config, opts):
        from crawlweb.services.network import fetcher_for
        from crawlweb.testweb import TestWebServer, generate_web

        web = generate_web(seed=opts["web_seed"], size=opts["size"], pages_per_site=opts["pages_per_site"])
        truth = web.truth()
        # Site name (host without www.) -> the truth site it belongs to: a subdomain layout is one site.
        bilingual_hosts = {h.removeprefix("www."): s["host"] for s in truth["sites"] if s["bilingual_sr_en"]
                           for h in s["hosts"]}
        config = {"host_interval": 0, "backlinks": {"providers": TESTWEB_PROVIDERS, "rate": 1000}, **config}
        # The test web's trap pages answer slowly on purpose: short timeouts keep the runs short.
        settings.CRAWLER_READ_TIMEOUT = min(settings.CRAWLER_READ_TIMEOUT, 3.0)
        settings.CRAWLER_IDLE_FINISH_SECONDS = min(settings.CRAWLER_IDLE_FINISH_SECONDS, 3.0)
        with TestWebServer(web, host="127.0.0.1", port=0) as server:
            saved = {k: os.environ.get(k) for k in ("HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy")}
            os.environ.update(HTTP_PROXY=server.proxy_url, http_proxy=server.proxy_url,
                              NO_PROXY="127.0.0.1,localhost,::1", no_proxy="127.0.0.1,localhost,::1")
            fetcher_for.cache_clear()
            try:
                return compare(strategies, testweb_seeds(truth, opts["seed_count"]), opts["budget"], config,
                               bilingual_hosts=bilingual_hosts, watch=self._watch)
            finally:
                for key, value in saved.items():
                    if value is None:
                        os.environ.pop(key, None)
                    else:
                        os.environ[key] = value
                fetcher_for.cache_clear()
