"""Strategy comparison (Barbosa et al. 2011, Sec. 3, Fig. 3): bilingual sites found against pages fetched.

Each strategy crawls the same seeds with the same page budget; the harvest curve counts the sites
the BS Detector judged bilingual, by the crawl's fetched-page count at the time of the verdict.
On the test web the truth also tells how many of those sites really are bilingual.
"""
from __future__ import annotations

import csv
import os
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, ContextManager

from django.conf import settings

from crawlweb.models import Crawl, SeedList
from crawlweb.jobs.crawl_control import start_crawl
from frontier.harvest import harvest_curve
from frontier.models import SiteVerdict

TESTWEB_PROVIDERS = [{"kind": "graph"}, {"kind": "http", "url_template": "http://backlinks.test/?url={url}"}]


@dataclass
class Run:
    strategy: str
    crawl_id: int
    pages_fetched: int
    bilingual_found: int
    truly_bilingual: int | None
    detector_pages: int
    seconds: float
    curve: list[tuple[int, int]] = field(default_factory=list)  # (pages fetched, bilingual sites so far)

    @property
    def per_page(self) -> float:
        """Bilingual sites per page fetched; on the test web, distinct truly bilingual sites
        (a site on sr.host and en.host is one site, and a wrong verdict is not a find)."""
        found = self.bilingual_found if self.truly_bilingual is None else self.truly_bilingual
        return found / self.pages_fetched if self.pages_fetched else 0.0

    @property
    def verdicts_per_page(self) -> float:
        """Sites the detector called bilingual per page fetched (what a crawl without truth sees)."""
        return self.bilingual_found / self.pages_fetched if self.pages_fetched else 0.0


def wait_for(crawl: Crawl, timeout: float) -> None:
    """Wait for a crawl run by real workers (REDIS_URL set); the sync mode returns finished."""
    from crawlweb.jobs.queueing import uses_redis, wait_for_in_process_jobs

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        crawl.refresh_from_db()
        if crawl.state == Crawl.State.FINISHED:
            break
        if not uses_redis():
            wait_for_in_process_jobs(1.0)
        time.sleep(0.2)
    if not uses_redis():
        wait_for_in_process_jobs(timeout)  # the detector and train jobs of the last step


def run_strategy(strategy: str, seeds: list[str], budget: int, config: dict, *, bilingual_hosts: dict[str, str] | None = None,
                 name: str = "experiment", timeout: float = 600.0,
                 watch: Callable[[Crawl], ContextManager] | None = None) -> Run:
    """``watch(crawl)``, when given, is a context that shows the crawl's progress while it runs."""
    started = time.monotonic()
    seed_list = SeedList.objects.create(name=f"{name} {strategy} {SeedList.objects.count() + 1}")
    seed_list.seeds.bulk_create([seed_list.seeds.model(seed_list=seed_list, url=url) for url in seeds])
    crawl = Crawl.objects.create(name=f"{name}: {strategy}", seed_list=seed_list, strategy=strategy,
                                 page_budget=budget, config=config, follow_out_of_site=True)
    with watch(crawl) if watch else nullcontext():
        start_crawl(crawl)
        wait_for(crawl, timeout)
    crawl.refresh_from_db()
    verdicts = SiteVerdict.objects.filter(crawl=crawl)
    found = list(verdicts.filter(bilingual=True).values_list("site__name", flat=True))
    truly = None
    if bilingual_hosts is not None:
        truly = len({bilingual_hosts[site] for site in found if site in bilingual_hosts})
    return Run(strategy, crawl.pk, crawl.pages_fetched, len(found), truly,
               sum(verdicts.values_list("pages_downloaded", flat=True)), time.monotonic() - started,
               harvest_curve(crawl))


def compare(strategies: list[str], seeds: list[str], budget: int, config: dict, **kwargs) -> list[Run]:
    if not settings.REDIS_URL:
        settings.JOBS_INPROCESS_MODE = "sync"  # one strategy after the other, each run to its end
    return [run_strategy(s, seeds, budget, config, **kwargs) for s in strategies]


def ratios(runs: list[Run], measure: str = "per_page") -> dict[str, float]:
    """Bilingual sites found per page, of each strategy relative to FC (and COBFC to OBFC)."""
    by = {r.strategy: getattr(r, measure) for r in runs}
    out = {}
    for a, b in (("cobfc", "fc"), ("obfc", "fc"), ("cobfc", "obfc"), ("focc", "fc")):
        if a in by and b in by:
            out[f"{a}_vs_{b}"] = by[a] / by[b] if by[b] else float("inf")
    return out


def write_outputs(runs: list[Run], out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    csv_path, png_path = out / "harvest.csv", out / "harvest.png"
    with csv_path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["strategy", "crawl_id", "pages_fetched", "bilingual_sites"])
        for run in runs:
            for pages, found in run.curve:
                writer.writerow([run.strategy, run.crawl_id, pages, found])
    os.environ.setdefault("MPLBACKEND", "Agg")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for run in runs:
        xs, ys = zip(*run.curve)
        ax.step(xs, ys, where="post", label=f"{run.strategy.upper()} ({run.bilingual_found})")
    ax.set_xlabel("pages fetched")
    ax.set_ylabel("bilingual sites found")
    ax.set_title("Bilingual sites found vs pages fetched")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(png_path, dpi=100)
    plt.close(fig)
    return csv_path, png_path
