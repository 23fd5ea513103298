"""`manage.py testweb serve|truth`: run the generated test web as a loopback HTTP proxy,
or print its ground truth. All logic lives in the pure package crawlweb.testweb."""

from __future__ import annotations

import json
import time

from django.core.management.base import BaseCommand, CommandError

from crawlweb.testweb.generator import generate_web
from crawlweb.testweb.heavy_tail import SIZE_DISTRIBUTIONS, UNIFORM
from crawlweb.testweb.real_sites import RealSitesError
from crawlweb.testweb.server import TestWebServer


class Command(BaseCommand):
    help = "Serve the generated test web as an HTTP proxy on 127.0.0.1, or print its truth JSON."
    # A stand-alone tool: it touches neither the database nor URLs, so checks would only slow it.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):
        commands = parser.add_subparsers(dest="action", required=True, metavar="{serve,truth}")
        serve = commands.add_parser("serve", help="serve until Ctrl-C")
        truth = commands.add_parser("truth", help="print the ground truth as JSON")
        for sub in (serve, truth):
            sub.add_argument("--seed", type=int, default=1)
            sub.add_argument("--size", type=int, default=40, help="number of sites")
            sub.add_argument("--pages-per-site", type=int, default=12,
                             help="pages per site; with --size-distribution heavy-tailed, the largest site's")
            sub.add_argument("--size-distribution", choices=SIZE_DISTRIBUTIONS, default=UNIFORM,
                             help="uniform (every site the same size) or heavy-tailed (as the real web)")
            sub.add_argument("--real-sites", default=None,
                             help="directory with hosts/<host>/<path> and truth.json to serve too")
            sub.add_argument("--slow-delay", type=float, default=3.0,
                             help="seconds the slow page waits before answering")
        serve.add_argument("--host", default="127.0.0.1")
        serve.add_argument("--port", type=int, default=8808)

    def handle(self, *args, **options):
        try:
            web = generate_web(options["seed"], options["size"], options["pages_per_site"],
                               slow_delay_s=options["slow_delay"],
                               size_distribution=options["size_distribution"])
            if options["real_sites"]:
                web = web.with_real_sites(options["real_sites"])
        except (ValueError, RealSitesError) as error:
            raise CommandError(str(error)) from error
        if options["action"] == "truth":
            self.stdout.write(json.dumps(web.truth(), ensure_ascii=False, indent=1))
            return
        server = TestWebServer(web, host=options["host"], port=options["port"])
        try:
            server.start()
        except OSError as error:
            raise CommandError(f"cannot listen on {options['host']}:{options['port']}: {error}") from error
        truth = web.truth()
        self.stdout.write(f"Test web proxy on {server.proxy_url} "
                          f"({len(truth['sites'])} sites, seed {options['seed']})")
        self.stdout.write(f"Use it with: export HTTP_PROXY={server.proxy_url} http_proxy={server.proxy_url}"
                          " (plain http only; no CONNECT)")
        self.stdout.write(f"Seed URLs: {' '.join(truth['seed_urls'])}")
        self.stdout.write("Press Ctrl-C to stop.")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            self.stdout.write("Stopping the test web proxy.")
        finally:
            server.stop()
