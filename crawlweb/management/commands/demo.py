"""python manage.py demo: the embedded default in one command.

Creates an admin user (password from DEMO_ADMIN_PASSWORD, else generated and printed), serves
the bundled test web on a loopback proxy, starts a crawl of it with in-process jobs, and serves
the dashboard on http://127.0.0.1:PORT/.
"""
from __future__ import annotations

import os
import secrets
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from crawlweb.jobs.queueing import uses_redis
from crawlweb.models import Crawl, SeedList
from crawlweb.services import crawl_control
from crawlweb.testweb.generator import generate_web
from crawlweb.testweb.server import TestWebServer


class Command(BaseCommand):
    help = "Start the test web, a crawl of it and the dashboard (embedded mode: SQLite, in-process jobs)."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000, help="dashboard port (default 8000)")
        parser.add_argument("--size", type=int, default=40, help="sites in the test web (default 40)")
        parser.add_argument("--seed", type=int, default=1, help="test web generator seed")
        parser.add_argument("--budget", type=int, default=2000, help="pages to crawl (default 2000)")
        parser.add_argument("--check", type=int, metavar="N", default=0,
                            help="do not serve the dashboard: wait until N pages are fetched, then exit")

    def handle(self, *args, port, size, seed, budget, check, **options):
        if uses_redis():
            self.stdout.write("REDIS_URL is set: crawl steps go to RQ; start workers with "
                              "'python manage.py rqworker score train crawl'.")
        password = self._ensure_admin()
        web_server = TestWebServer(generate_web(seed=seed, size=size), host="127.0.0.1", port=0)
        web_server.start()
        # The crawler reaches the test web's hosts through it, as through any HTTP proxy.
        os.environ["HTTP_PROXY"] = os.environ["http_proxy"] = web_server.proxy_url
        os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost,::1"
        self.stdout.write(f"test web: {size} sites, proxy {web_server.proxy_url}")
        crawl = self._start_crawl(web_server, budget)
        self.stdout.write(f"crawl {crawl.pk} started with a budget of {budget} pages")
        if check:
            self._wait_for_pages(crawl, check)
            web_server.stop()
            return
        self.stdout.write(self.style.SUCCESS(
            f"dashboard: http://127.0.0.1:{port}/   admin user: admin   password: {password}"))
        try:
            call_command("runserver", f"127.0.0.1:{port}", use_reloader=False, insecure_serving=True)
        finally:
            web_server.stop()

    def _ensure_admin(self) -> str:
        password = os.environ.get("DEMO_ADMIN_PASSWORD") or secrets.token_urlsafe(12)
        user, _ = get_user_model().objects.get_or_create(username="admin", defaults={"email": "admin@localhost"})
        user.is_staff = user.is_superuser = True
        user.set_password(password)
        user.save()
        return password

    def _start_crawl(self, web_server, budget: int) -> Crawl:
        truth = web_server.web.truth()
        seed_list, _ = SeedList.objects.get_or_create(
            name="test web seeds", defaults={"description": "Start URLs of the bundled test web."})
        seed_list.seeds.all().delete()
        seed_list.seeds.bulk_create([seed_list.seeds.model(seed_list=seed_list, url=url)
                                     for url in truth["seed_urls"]])
        crawl = Crawl.objects.create(
            name="demo: test web", seed_list=seed_list, page_budget=budget, parallel_steps=1,
            # Loopback hosts are only the test web's special pages; politeness stays on at a short interval.
            config={"host_interval": min(settings.CRAWLER_HOST_INTERVAL, 0.2)})
        crawl_control.start_crawl(crawl)
        return crawl

    def _wait_for_pages(self, crawl: Crawl, pages: int) -> None:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            crawl.refresh_from_db()
            if crawl.pages_fetched >= pages or crawl.state != Crawl.State.RUNNING:
                break
            time.sleep(0.5)
        self.stdout.write(f"crawl {crawl.pk}: {crawl.pages_fetched} pages fetched, state {crawl.state}")
        if crawl.pages_fetched < pages:
            raise CommandError(f"only {crawl.pages_fetched} of {pages} pages fetched")
