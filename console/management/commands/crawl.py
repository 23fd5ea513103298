"""python manage.py crawl start|pause|resume|stop|reharvest|status ..."""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from console.crawl_setup.command_input import InputError, form_data
from console.crawl_setup.form import CrawlSetupForm, error_lines
from console.crawl_setup.methods import configuration_rows
from console.crawl_setup.presets import preset_names
from crawlweb.jobs.embedded_watch import start_embedded_watch
from crawlweb.jobs.queueing import uses_redis
from crawlweb.models import Crawl, SeedList
from crawlweb.jobs import chain_runner, crawl_control
from frontier.crawl_progress import display_for, follow_crawl, wait_for_crawl_jobs
from crawlweb.seed_import import parse_seed_file
from crawlweb.services.seeds import import_seeds
from frontier.models import Target


def add_start_arguments(start) -> None:
    """The New crawl form's fields as flags; values are checked by the form, not by argparse, so an
    error reads the same here and on the dashboard."""
    start.add_argument("--preset", help=f"fill the method's fields: {preset_names()}")
    start.add_argument("--config", type=Path, help="a JSON file of form fields (a preset first, flags after)")
    start.add_argument("--name")
    start.add_argument("--seed-list", help="name of an existing seed list")
    start.add_argument("--seeds", type=Path, help="a seed file (text or CSV) to import into a new seed list")
    start.add_argument("--url", action="append", default=[], help="a start URL (repeatable)")
    start.add_argument("--strategy", help="bfs, fc, focc, obfc or cobfc")
    start.add_argument("--pair", help="language pair with data, e.g. sr-en (the default)")
    start.add_argument("--modules", help="frontier modules, comma-separated: M01,M03")
    start.add_argument("--weights", help="module weights: M01=3,M03=1")
    start.add_argument("--backlinks", help="backlink providers for OBFC/COBFC: graph,edge_file,http")
    start.add_argument("--edge-file", help="the edge_file provider's file")
    start.add_argument("--backlink-url-template", help="the http provider's URL, with {url}")
    start.add_argument("--topic", help="FocC: a file of Combine topic lines 'weight: term=class'")
    start.add_argument("--topic-cutoff")
    start.add_argument("--url-rules", help="a file of 'allow|exclude HOST:<regex>|URL:<regex>' lines")
    start.add_argument("--budget", help="pages to fetch (default 1000)")
    start.add_argument("--time-limit", help="seconds after which the crawl finishes")
    start.add_argument("--in-site-only", action="store_true", help="do not follow links that leave a site")
    start.add_argument("--parallel-steps", help="crawl-step jobs kept in flight (one per worker you want busy)")
    start.add_argument("--host-interval", help="seconds between requests to one host")
    start.add_argument("--address-policy", help="public, loopback or private")
    start.add_argument("--no-wait", action="store_true",
                       help="return at once: workers do the crawl (needs REDIS_URL when run from manage.py)")


def nothing_would_run_it(action: str) -> str:
    """Why ``action`` is refused when this process exits at once and the crawl's jobs would run in
    its own threads: they would end with it, leaving the crawl running with nothing to run it."""
    problem = ("without REDIS_URL the crawl's jobs run inside this command's process, which would exit at once "
               "and leave the crawl running with nothing to run it")
    workers = "or set REDIS_URL and start workers (python manage.py rqworker crawl score train)"
    if action == "kick":
        return (f"kick: {problem}. Instead: `crawl resume ID` runs the steps of a running crawl whose process "
                f"ended here and follows it (a dashboard in the embedded mode takes such a crawl over by itself); "
                f"{workers}.")
    return (f"--no-wait: {problem}. Instead: leave out --no-wait (the command runs the crawl and follows it; "
            f"Ctrl-C leaves it for `crawl resume ID`); or use the dashboard, whose web server runs the crawl; "
            f"{workers}." + (" Nothing was created." if action == "start" else ""))


class Command(BaseCommand):
    help = "Start and control crawls from the command line."
    # True when run by manage.py: the process ends with the command, and its in-process jobs with it
    # (call_command from a web server, a shell or a test leaves them running in the caller).
    process_ends_with_command = False

    def run_from_argv(self, argv):
        self.process_ends_with_command = True
        return super().run_from_argv(argv)

    def _refuse_if_nothing_would_run_it(self, action: str, options) -> None:
        returns_at_once = options.get("no_wait") or action == "kick"
        if returns_at_once and self.process_ends_with_command and chain_runner.runs_in_process_threads():
            raise CommandError(nothing_would_run_it(action))

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True)
        start = actions.add_parser("start", help="start a new crawl (the dashboard's New crawl form, as flags)")
        add_start_arguments(start)
        for name in ("pause", "resume", "stop", "reharvest", "kick", "status"):
            sub = actions.add_parser(name, help=f"{name} a crawl")
            sub.add_argument("crawl_id", type=int)
            if name in ("resume", "reharvest"):
                sub.add_argument("--no-wait", action="store_true")

    def handle(self, *args, action, **options):
        waits = action in ("start", "resume", "reharvest") and not options.get("no_wait")
        # The crawls this process runs say they live, and get their chains back if a step fails.
        watch = start_embedded_watch(take_over_orphans=False) if waits else None
        try:
            self._act(action, waits, options)
        finally:
            if watch is not None:
                watch.stop()

    def _act(self, action: str, waits: bool, options) -> None:
        if action == "start":
            crawl = self._start(options)
        else:
            crawl = Crawl.objects.filter(pk=options["crawl_id"]).first()
            if crawl is None:
                raise CommandError(f"no crawl with id {options['crawl_id']}")
            if action in ("resume", "reharvest", "kick"):
                self._refuse_if_nothing_would_run_it(action, options)
            try:
                if action == "pause":
                    crawl_control.pause_crawl(crawl)
                elif action == "resume":
                    crawl_control.resume_crawl(crawl)
                elif action == "stop":
                    crawl_control.stop_crawl(crawl)
                elif action == "kick":
                    crawl_control.kick_crawl(crawl)
                elif action == "reharvest":
                    marked = crawl_control.reharvest_crawl(crawl)
                    self.stdout.write(f"{marked} pages marked for a new fetch")
            except crawl_control.CrawlStateError as error:
                raise CommandError(str(error)) from None
        crawl.refresh_from_db()
        self.stdout.write(f"crawl {crawl.pk} '{crawl.name}': {crawl.state}")
        if waits:
            self._follow(crawl)
        self._summary(crawl)

    def _start(self, options) -> Crawl:
        """Validate everything with the dashboard's form before anything is created, then create and start."""
        seed_file = options["seeds"]
        if seed_file and not seed_file.is_file():
            raise CommandError(f"seed file {seed_file} does not exist")
        try:
            data = form_data(options)
        except InputError as error:
            raise CommandError(str(error)) from None
        form = CrawlSetupForm(data, seeds_given=bool(seed_file))
        if not form.is_valid():
            raise CommandError("bad crawl configuration:\n" + "\n".join(error_lines(form)))
        seed_list = form.cleaned_data["seed_list"]
        if seed_file:
            content = seed_file.read_bytes()
            entries, errors = parse_seed_file(content, seed_file.name)
            for error in errors:
                self.stderr.write(f"{seed_file}: {'' if error.whole_file else 'skipped '}{error}")
            if not entries:  # --url alone would start a crawl the operator did not mean: say so instead
                raise CommandError(f"seed file {seed_file}: no usable URL in it; nothing was created")
        self._refuse_if_nothing_would_run_it("start", options)
        if seed_file:
            seed_list, _ = SeedList.objects.get_or_create(name=f"file {seed_file.name}")
            added, _ = import_seeds(seed_list, content, seed_file.name)
            self.stdout.write(f"{added} seeds imported from {seed_file}")
        crawl = form.create_crawl(seed_list=seed_list)
        added = crawl_control.start_crawl(crawl, extra_urls=form.cleaned_data["start_urls"])
        self.stdout.write(f"{added} start URLs scheduled")
        for row in configuration_rows(crawl):
            self.stdout.write(f"  {row.label}: {row.value}  [{row.method}]")
        return crawl

    def _follow(self, crawl: Crawl) -> None:
        """A live progress line until the crawl leaves the running state (plain lines when not on a
        terminal), then, when its jobs run in this process, until its follow-up jobs (the last
        pairing pass, the site verdicts) are done; Ctrl-C leaves the crawl running."""
        if uses_redis():
            self.stdout.write("jobs run on RQ workers: python manage.py rqworker crawl score train (half of them)"
                              " and python manage.py rqworker score train crawl (the other half)")
        display = display_for(self.stdout, f"crawl {crawl.pk}")
        try:
            follow_crawl(crawl, display)
            if not uses_redis():
                wait_for_crawl_jobs(crawl, self.stdout.write)
        except KeyboardInterrupt:
            self.stdout.write("\nstopped following; the crawl goes on" if uses_redis() else
                              f"\nstopped: the crawl's jobs ran in this process and end with it; `crawl resume {crawl.pk}`"
                              " goes on (a dashboard in the embedded mode takes it over by itself)")

    def _summary(self, crawl: Crawl) -> None:
        crawl.refresh_from_db()
        counts = {state: Target.objects.filter(crawl=crawl, state=state).count() for state in Target.State.values}
        self.stdout.write(f"pages fetched: {crawl.pages_fetched}/{crawl.page_budget}; targets: "
                          + ", ".join(f"{k} {v}" for k, v in counts.items() if v))
        if crawl.status_message:
            self.stdout.write(f"{crawl.state}: {crawl.status_message}")
        orphaned = chain_runner.why_orphaned(crawl) if not chain_runner.is_mine(crawl) else ""
        if orphaned:
            self.stdout.write(f"nothing runs its steps: {orphaned}; `crawl resume {crawl.pk}` runs them here "
                              "(a dashboard in the embedded mode takes it over by itself)")
        if crawl.last_error:
            self.stdout.write(f"last error: {crawl.last_error}")
