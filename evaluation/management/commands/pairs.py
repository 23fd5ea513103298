"""python manage.py pairs score CRAWL_ID | pairs export CRAWL_ID --format tsv|jsonl [--output FILE]
                        | pairs discover CRAWL_ID [--iterations N] [--no-wait]"""
import json
import sys
import time

from django.core.management.base import BaseCommand, CommandError

from crawlweb.jobs.queueing import uses_redis
from crawlweb.models import Crawl
from crawlweb.progress import Snapshot
from crawlweb.jobs import chain_runner
from frontier.crawl_progress import display_for
from evaluation.models import CandidatePair, DiscoveredSite, DiscoveryRun
from evaluation.services import discovery, scoring
from evaluation.services.pairs import METHODS


NO_WAIT_WITHOUT_REDIS = (
    "--no-wait: without REDIS_URL the discovery's crawl rounds and later rankings run inside this command's "
    "process, which would exit at once and leave the crawl running with nothing to run it. Instead: leave out "
    "--no-wait (the command runs the rounds and follows them to the last ranking); or set REDIS_URL and start "
    "workers (python manage.py rqworker crawl score train). Nothing was changed.")


class Command(BaseCommand):
    help = "Score a crawl's parallel page pairs now, export the kept pairs, or discover new sites."
    # True when run by manage.py: the process ends with the command, and its in-process jobs with it
    # (call_command from a web server, a shell or a test leaves them running in the caller).
    process_ends_with_command = False

    def run_from_argv(self, argv):
        self.process_ends_with_command = True
        return super().run_from_argv(argv)

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        score = sub.add_parser("score", help="run every pairing method on every site now; print a summary")
        score.add_argument("crawl_id", type=int)
        export = sub.add_parser("export", help="write the kept pairs: source URL, target URL, method, similarity")
        export.add_argument("crawl_id", type=int)
        export.add_argument("--format", choices=("tsv", "jsonl"), default="tsv")
        export.add_argument("--output", help="file to write (default: standard output)")
        discover = sub.add_parser("discover", help="rank external sites (ΣLinkout, ΣPR, ΣWPR), add the top K as "
                                                   "seeds, let the crawl fetch them; again for each iteration")
        discover.add_argument("crawl_id", type=int)
        discover.add_argument("--iterations", type=int, help="rankings (default PAIRS_DISCOVERY_ITERATIONS)")
        discover.add_argument("--no-wait", action="store_true",
                              help="return after the first ranking; the crawl rounds and later rankings go on")

    def handle(self, *args, action, crawl_id, **options):
        if not Crawl.objects.filter(pk=crawl_id).exists():
            raise CommandError(f"no crawl with id {crawl_id}")
        getattr(self, f"_{action}")(crawl_id, **options)

    def _score(self, crawl_id, **options):
        display = display_for(self.stdout, f"pairs score crawl {crawl_id}")
        seen = {"phase": None, "since": time.monotonic(), "last": None}

        def progress(phase, done, total, summary):
            if phase != seen["phase"]:  # each phase has its own sites, rate and ETA
                seen.update(phase=phase, since=time.monotonic())
            seen["last"] = Snapshot(done=done, total=total, elapsed=time.monotonic() - seen["since"], state=phase,
                                    unit="sites", found={"pairs kept": sum(summary.kept_by_method.values())})
            display.show(seen["last"])

        try:
            summary = scoring.score_crawl(crawl_id, progress=progress)
        finally:
            display.close(seen["last"])
        self.stdout.write(f"crawl {crawl_id}: {summary.sites} sites, {summary.pages} pages scored")
        self.stdout.write(f"{'method':<16}{'proposed':>10}{'kept':>8}")
        for method in METHODS:
            self.stdout.write(f"{method:<16}{summary.by_method.get(method, 0):>10}"
                              f"{summary.kept_by_method.get(method, 0):>8}")
        self.stdout.write(f"{'all':<16}{sum(summary.by_method.values()):>10}{sum(summary.kept_by_method.values()):>8}")
        self.stdout.write(f"script variants: {summary.script_variants}")

    def _export(self, crawl_id, format, output=None, **options):
        rows = CandidatePair.objects.filter(crawl_id=crawl_id, kept=True).order_by("site_id", "source_url")
        out = open(output, "w", encoding="utf-8") if output else sys.stdout
        try:
            for pair in rows.iterator():
                similarity = pair.similarity if pair.similarity is not None else ""
                if format == "tsv":
                    out.write(f"{pair.source_url}\t{pair.target_url}\t{pair.method}\t{similarity}\n")
                else:
                    out.write(json.dumps({"source_url": pair.source_url, "target_url": pair.target_url,
                                          "method": pair.method, "similarity": pair.similarity},
                                         ensure_ascii=False) + "\n")
        finally:
            if output:
                out.close()

    def _discover(self, crawl_id, iterations=None, no_wait=False, **options):
        if iterations is not None and iterations < 1:
            raise CommandError("--iterations must be at least 1")
        if no_wait and self.process_ends_with_command and chain_runner.runs_in_process_threads():
            raise CommandError(NO_WAIT_WITHOUT_REDIS)
        run = discovery.start_discovery(crawl_id, iterations)
        self._ranking(crawl_id, 1)
        if not no_wait and not run.finished:
            if uses_redis():
                self.stdout.write("jobs run on RQ workers: python manage.py rqworker score train crawl")
            run = self._follow(crawl_id)
        for iteration in range(2, run.iteration + 1):
            self._ranking(crawl_id, iteration)
        state = "rankings done" if run.finished else "the next rankings follow the crawl rounds"
        self.stdout.write(f"discovery: {run.iteration}/{run.iterations} iterations, {run.seeds_added} sites added "
                          f"as seeds; {state}")

    def _ranking(self, crawl_id, iteration):
        rows = list(DiscoveredSite.objects.filter(crawl_id=crawl_id, iteration=iteration).order_by("rank"))
        self.stdout.write(f"iteration {iteration}:")
        for row in rows[:20]:
            self.stdout.write(f"{row.rank:>4} {row.host:<40} Linkout={row.sum_linkout:.0f} PR={row.sum_pr:.4f} "
                              f"WPR={row.sum_wpr:.4f}{' seed' if row.added_as_seed else ''}")
        self.stdout.write(f"{len(rows)} external sites ranked; {sum(r.added_as_seed for r in rows)} added as seeds")

    def _follow(self, crawl_id) -> DiscoveryRun:
        """Until the last ranking: each one waits for the crawl round before it (Ctrl-C leaves it going on)."""
        try:
            while True:
                run = DiscoveryRun.objects.get(crawl_id=crawl_id)
                crawl = Crawl.objects.get(pk=crawl_id)
                sys.stdout.write(f"\riteration {run.iteration}/{run.iterations}: crawl {crawl.state}, "
                                 f"{crawl.pages_fetched}/{crawl.page_budget} pages   ")
                sys.stdout.flush()
                if run.finished:
                    break  # the last ranking is done; its seeds go on with the crawl like any others
                time.sleep(0.5)
        except KeyboardInterrupt:
            self.stdout.write("\nstopped following; discovery goes on with the crawl")
        self.stdout.write("")
        return DiscoveryRun.objects.get(crawl_id=crawl_id)
