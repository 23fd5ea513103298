"""Benchmark: what rendering a page in Chromium costs the BS Detector (Issue 31, item 2).

    .venv/bin/python bench/render.py [--quick] [--rounds N]

The generated test web's two script-switch sites (crawlweb/testweb/script_sites.py: a home page that
only redirects by the browser's language, a switch loaded from a fragment) are served on 127.0.0.1
through the test web's proxy, and a throw-away embedded project (SQLite in a temporary VAR_DIR,
synchronous jobs: one process, as one worker) crawls them with COBFC, once per round, a new crawl
each time: each round's two detector jobs render their sites' pages, as a worker's jobs follow one
another. The wall time charged to rendering is every render's (frontier.detector_job's
render_page_links: waiting for the browser, its start when there is one, the page, its links stored)
plus closing the renderer after the job's renders (where a browser per job is closed), measured
around those calls, so the same figure can be taken of any version of the detector.

Last line: RESULT render_ms_per_page=… first_render_ms=… later_render_ms=… pages_rendered=… sites_found=…
(render_ms_per_page: the mean over every rendered page, closing included; first_render_ms: the process's
first render (its browser's start included); later_render_ms: the mean of the others; sites_found: the
rounds' bilingual verdicts reached by a render, of 2 per round.) --quick: two rounds (under 60 s).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def configure(var_dir: Path) -> None:
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "crawlweb.settings", "VAR_DIR": str(var_dir),
        "DATABASE_URL": f"sqlite:///{var_dir}/bench.sqlite3", "JOBS_INPROCESS_MODE": "sync",
        "CRAWLER_HOST_INTERVAL": "0", "CRAWLER_IDLE_FINISH_SECONDS": "1", "CRAWLER_READ_TIMEOUT": "5",
        "CRAWLER_WARC": "0", "LOG_LEVEL": "ERROR", "CRAWLER_ADDRESS_POLICY": "loopback",
    })
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


class RenderClock:
    """Wall time of the detector's renders and of closing its renderers, around frontier.detector_job's calls."""

    def __init__(self):
        self.pages: list[float] = []  # ms per render_page_links call
        self.closing_ms = 0.0

    def install(self) -> None:
        from frontier import detector_job

        render_page_links, renderer_for = detector_job.render_page_links, detector_job.renderer_for
        clock = self

        def timed_render(*args, **kwargs):
            started = time.perf_counter()
            try:
                return render_page_links(*args, **kwargs)
            finally:
                clock.pages.append((time.perf_counter() - started) * 1000)

        class TimedRenderer:
            def __init__(self, *args, **kwargs):
                self.renderer = renderer_for(*args, **kwargs)

            def __enter__(self):
                return self.renderer.__enter__()

            def __exit__(self, *exc):
                started = time.perf_counter()
                try:
                    return self.renderer.__exit__(*exc)
                finally:
                    clock.closing_ms += (time.perf_counter() - started) * 1000

        detector_job.render_page_links, detector_job.renderer_for = timed_render, TimedRenderer


def crawl_round(number: int, seeds: list[str]):
    from crawlweb.models import Crawl, SeedList
    from crawlweb.jobs.crawl_control import start_crawl
    from frontier.models import SiteVerdict

    seed_list = SeedList.objects.create(name=f"render bench {number}")
    seed_list.seeds.bulk_create([seed_list.seeds.model(seed_list=seed_list, url=url) for url in seeds])
    crawl = Crawl.objects.create(name=f"render {number}", seed_list=seed_list, page_budget=30, strategy="cobfc",
                                 config={"host_interval": 0, "random_seed": 1,
                                         "backlinks": {"providers": [{"kind": "graph"}], "rate": 1000}})
    start_crawl(crawl)
    crawl.refresh_from_db()
    verdicts = SiteVerdict.objects.filter(crawl=crawl, bilingual=True)
    found = sum(1 for v in verdicts if v.evidence.get("rendered") and not any(
        r.get("error") for r in v.evidence["rendered"]))
    errors = [r["error"] for v in SiteVerdict.objects.filter(crawl=crawl) for r in v.evidence.get("rendered", [])
              if r.get("error")]
    return crawl, found, errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="two rounds (under 60 s)")
    parser.add_argument("--rounds", type=int, help="crawls of the two sites, one after another (default 8)")
    args = parser.parse_args(argv)
    rounds = args.rounds or (2 if args.quick else 8)
    if rounds < 1:
        parser.error(f"--rounds must be at least 1, got {rounds}")
    with tempfile.TemporaryDirectory(prefix="render_bench_") as tmp:
        configure(Path(tmp))
        from django.conf import settings

        if not settings.CRAWLER_CHROMIUM or not Path(settings.CRAWLER_CHROMIUM).exists():
            print(f"no Chromium at {settings.CRAWLER_CHROMIUM!r}: nothing to measure", file=sys.stderr)
            print("RESULT render_ms_per_page=0 first_render_ms=0 later_render_ms=0 pages_rendered=0 sites_found=0")
            return 0
        from bench.support.proxied_web import proxied_test_web
        from crawlweb.testweb.generator import generate_web
        from crawlweb.testweb.script_sites import BROWSER_LANGUAGE_HOST, FRAGMENT_HOST

        clock = RenderClock()
        clock.install()
        seeds = [f"http://{BROWSER_LANGUAGE_HOST}/", f"http://{FRAGMENT_HOST}/"]
        found_total = 0
        started = time.monotonic()
        with proxied_test_web(generate_web(seed=1, size=2, pages_per_site=2)):
            for number in range(1, rounds + 1):
                before = len(clock.pages)
                crawl, found, errors = crawl_round(number, seeds)
                found_total += found
                rendered = clock.pages[before:]
                print(f"round {number}: {crawl.state}, {len(rendered)} pages rendered "
                      f"({', '.join(f'{ms:.0f}' for ms in rendered)} ms), {found} of 2 sites found by a render"
                      + (f"; errors: {errors}" if errors else ""))
        pages = clock.pages
        total_ms = sum(pages) + clock.closing_ms
        per_page = total_ms / len(pages) if pages else 0.0
        first = pages[0] if pages else 0.0
        later = sum(pages[1:]) / len(pages[1:]) if len(pages) > 1 else 0.0
        print(f"{len(pages)} pages in {rounds} rounds ({time.monotonic() - started:.0f} s): {per_page:.0f} ms per page "
              f"(renderers closed in {clock.closing_ms:.0f} ms in all); first {first:.0f} ms, later {later:.0f} ms")
    print(f"RESULT render_ms_per_page={per_page:.1f} first_render_ms={first:.1f} later_render_ms={later:.1f} "
          f"pages_rendered={len(pages)} sites_found={found_total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
