"""python manage.py crawl start|pause|resume|stop|reharvest|status ..."""
from __future__ import annotations

import sys
import time
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from crawlweb.jobs.queueing import uses_redis
from crawlweb.models import Crawl, SeedList
from crawlweb.services import crawl_control
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.seeds import import_seeds
from frontier.models import Target


class Command(BaseCommand):
    help = "Start and control crawls from the command line."

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True)
        start = actions.add_parser("start", help="start a new crawl")
        start.add_argument("--name", default="command-line crawl")
        start.add_argument("--seed-list", help="name of an existing seed list")
        start.add_argument("--seeds", type=Path, help="a seed file (text or CSV) to import into a new seed list")
        start.add_argument("--url", action="append", default=[], help="a start URL (repeatable)")
        start.add_argument("--budget", type=int, default=1000, help="pages to fetch (default 1000)")
        start.add_argument("--in-site-only", action="store_true", help="do not follow links that leave a site")
        start.add_argument("--parallel-steps", type=int, default=1,
                           help="crawl-step jobs kept in flight (one per worker you want busy)")
        start.add_argument("--host-interval", type=float, help="seconds between requests to one host")
        start.add_argument("--address-policy", choices=("public", "loopback", "private"))
        start.add_argument("--no-wait", action="store_true",
                           help="return at once (with Redis: workers do the crawl)")
        for name in ("pause", "resume", "stop", "reharvest", "kick", "status"):
            sub = actions.add_parser(name, help=f"{name} a crawl")
            sub.add_argument("crawl_id", type=int)
            if name in ("resume", "reharvest"):
                sub.add_argument("--no-wait", action="store_true")

    def handle(self, *args, action, **options):
        if action == "start":
            crawl = self._start(options)
        else:
            crawl = Crawl.objects.filter(pk=options["crawl_id"]).first()
            if crawl is None:
                raise CommandError(f"no crawl with id {options['crawl_id']}")
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
        waits = action in ("start", "resume", "reharvest") and not options.get("no_wait")
        if waits:
            self._follow(crawl)
        self._summary(crawl)

    def _start(self, options) -> Crawl:
        config = {}
        if options["host_interval"] is not None:
            config["host_interval"] = options["host_interval"]
        if options["address_policy"]:
            config["address_policy"] = options["address_policy"]
        try:
            CrawlConfig.from_dict(config)
        except ValidationError as error:
            raise CommandError(f"bad crawl configuration: {error.message_dict}") from None
        seed_list = None
        if options["seeds"]:
            path = options["seeds"]
            if not path.is_file():
                raise CommandError(f"seed file {path} does not exist")
            seed_list, _ = SeedList.objects.get_or_create(name=f"file {path.name}")
            added, errors = import_seeds(seed_list, path.read_bytes(), path.name)
            for error in errors:
                self.stderr.write(f"{path}: skipped {error}")
            self.stdout.write(f"{added} seeds imported from {path}")
        elif options["seed_list"]:
            seed_list = SeedList.objects.filter(name=options["seed_list"]).first()
            if seed_list is None:
                raise CommandError(f"no seed list named {options['seed_list']!r}")
        if seed_list is None and not options["url"]:
            raise CommandError("give --seeds FILE, --seed-list NAME or --url URL")
        crawl = Crawl.objects.create(
            name=options["name"], seed_list=seed_list, page_budget=options["budget"], config=config,
            follow_out_of_site=not options["in_site_only"], parallel_steps=options["parallel_steps"])
        added = crawl_control.start_crawl(crawl, extra_urls=options["url"])
        self.stdout.write(f"{added} start URLs scheduled")
        return crawl

    def _follow(self, crawl: Crawl) -> None:
        """A progress bar until the crawl leaves the running state (Ctrl-C leaves it running)."""
        if uses_redis():
            self.stdout.write("jobs run on RQ workers: python manage.py rqworker score train crawl")
        try:
            while True:
                crawl.refresh_from_db()
                width = 30
                done = min(width, int(width * crawl.pages_fetched / max(1, crawl.page_budget)))
                pending = Target.objects.filter(crawl=crawl, state=Target.State.PENDING).count()
                sys.stdout.write(f"\r[{'#' * done}{'.' * (width - done)}] {crawl.pages_fetched}/{crawl.page_budget}"
                                 f" pages, {pending} waiting, {crawl.state}   ")
                sys.stdout.flush()
                if crawl.state != Crawl.State.RUNNING:
                    break
                time.sleep(0.5)
        except KeyboardInterrupt:
            self.stdout.write("\nstopped following; the crawl goes on")
        self.stdout.write("")

    def _summary(self, crawl: Crawl) -> None:
        crawl.refresh_from_db()
        counts = {state: Target.objects.filter(crawl=crawl, state=state).count() for state in Target.State.values}
        self.stdout.write(f"pages fetched: {crawl.pages_fetched}/{crawl.page_budget}; targets: "
                          + ", ".join(f"{k} {v}" for k, v in counts.items() if v))
        if crawl.last_error:
            self.stdout.write(f"last error: {crawl.last_error}")
