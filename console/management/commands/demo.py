"""python manage.py demo: the embedded default in one command.

Creates an admin and an evaluator (password from DEMO_ADMIN_PASSWORD, else generated and printed),
serves the bundled test web on a loopback proxy, starts a crawl of it with the project's strongest
configuration (demo_crawl.py), leaves two evaluations of its pairs ready to judge once the crawl is
scored (an estimate one that measures precision, an improve one whose judgments train), and serves the dashboard on http://127.0.0.1:PORT/.
"""
from __future__ import annotations

import os
import secrets
import threading

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections

from crawlweb.jobs.embedded_watch import start_embedded_watch
from crawlweb.jobs.queueing import uses_redis
from console import demo_crawl
from crawlweb.testweb.generator import generate_web
from crawlweb.testweb.server import TestWebServer

DEMO_RETRY_BACKOFF_S = 5.0


class Command(BaseCommand):
    help = ("Start the test web, a crawl of it (COBFC with M01+M03, the detector and pairing), an evaluation "
            "of its pairs and the dashboard (embedded mode: SQLite, in-process jobs).")

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000, help="dashboard port (default 8000)")
        parser.add_argument("--size", type=int, default=40, help="sites in the test web (default 40, at least 16)")
        parser.add_argument("--seed", type=int, default=1, help="test web generator seed")
        parser.add_argument("--budget", type=int, default=2000, help="pages to crawl (default 2000)")
        parser.add_argument("--check", type=int, metavar="N", default=0,
                            help="do not serve the dashboard: wait until N pages are fetched, then exit")

    def handle(self, *args, port, size, seed, budget, check, **options):
        if size < 16:
            raise CommandError(f"--size {size}: the test web needs at least 16 sites to hold every kind of site")
        if uses_redis():
            self.stdout.write("REDIS_URL is set: crawl steps go to RQ; start workers with "
                              "'python manage.py rqworker crawl score train' and "
                              "'python manage.py rqworker score train crawl' (half of each).")
        else:
            # The test web's broken pages (a 500, a timeout) answer at once: with the usual minute of
            # backoff before each retry, the demo's crawl, and the evaluation drawn after it, waited minutes.
            settings.CRAWLER_RETRY_BACKOFF = min(settings.CRAWLER_RETRY_BACKOFF, DEMO_RETRY_BACKOFF_S)
        password = os.environ.get("DEMO_ADMIN_PASSWORD") or secrets.token_urlsafe(12)
        demo_crawl.ensure_demo_users(password)
        web_server = TestWebServer(generate_web(seed=seed, size=size, judging_cases=True), host="127.0.0.1", port=0)
        web_server.start()
        # The crawler reaches the test web's hosts through it, as through any HTTP proxy.
        os.environ["HTTP_PROXY"] = os.environ["http_proxy"] = web_server.proxy_url
        os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost,::1"
        self.stdout.write(f"test web: {size} sites, proxy {web_server.proxy_url}")
        # The demo runs its crawls in its own threads: a crawl a killed demo left running runs again here,
        # through this demo's test web (the proxy variables are set: the crawler reads them once).
        start_embedded_watch(take_over_orphans=True)
        crawl = demo_crawl.start_demo_crawl(web_server.web.truth()["seed_urls"], budget)
        self.stdout.write(f"crawl {crawl.pk} started: {demo_crawl.DESCRIPTION}, budget {budget} pages")
        if check:
            try:
                fetched = demo_crawl.wait_for_pages(crawl, check)
            finally:
                web_server.stop()
            self.stdout.write(f"crawl {crawl.pk}: {fetched} pages fetched")
            if fetched < check:
                raise CommandError(f"only {fetched} of {check} pages fetched")
            return
        threading.Thread(target=self._evaluation_when_scored, args=(crawl.pk, port), daemon=True,
                         name="demo-evaluation").start()
        self._print_where_to_look(port, crawl.pk, password)
        try:
            call_command("runserver", f"127.0.0.1:{port}", use_reloader=False, insecure_serving=True)
        finally:
            web_server.stop()

    def _evaluation_when_scored(self, crawl_id: int, port: int) -> None:
        try:
            try:
                evaluations = demo_crawl.demo_evaluations_when_scored(crawl_id)
            except TimeoutError as error:
                self.stderr.write(f"no evaluation was drawn: {error}; draw one at http://127.0.0.1:{port}/labeling/new/")
                return
            if not evaluations:
                self.stderr.write(f"crawl {crawl_id} found no candidate pair: no evaluation was created")
            for evaluation in evaluations:
                self.stdout.write(self.style.SUCCESS(
                    f"{evaluation.purpose} evaluation ready: {evaluation.items.count()} pairs to judge at "
                    f"http://127.0.0.1:{port}/labeling/{evaluation.pk}/judge/"
                    + ("  (its judgments feed Train now at /training/)" if evaluation.purpose == "improve" else "")))
        finally:
            close_old_connections()

    def _print_where_to_look(self, port: int, crawl_id: int, password: str) -> None:
        base = f"http://127.0.0.1:{port}"
        self.stdout.write(self.style.SUCCESS(f"dashboard: {base}/   user admin, password {password}"))
        self.stdout.write(
            f"  {base}/crawls/{crawl_id}/         the crawl: pages, bilingual sites and their evidence, pairs kept "
            f"and removed\n"
            f"  {base}/pairs/crawls/{crawl_id}/   pairing patterns, pairs by site and method\n"
            f"  {base}/labeling/              the evaluation of the pairs (ready about a minute after the crawl "
            f"ends); user evaluator, same password, judges too\n"
            f"  {base}/admin/                 every record")
