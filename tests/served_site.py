"""One small hand-written site served like the real development sites, and a crawl of it alone.

The site's files go under ``<root>/hosts/<host>/`` with a truth.json naming its pairs; the test web
server serves them through its proxy beside a small generated web, as it serves the real sites.
"""
from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path

from crawlweb.models import Crawl
from crawlweb.jobs.crawl_control import start_crawl
from crawlweb.testweb.generator import generate_web
from crawlweb.testweb.server import TestWebServer
from tests.conftest import route_through


@contextlib.contextmanager
def served_site(root: Path, host: str, files: dict[str, str], pairs: list[list[str]]):
    """Serve ``files`` (path under the host → content) as http://<host>/…; yields the server."""
    for path, content in files.items():
        target = root / "hosts" / host / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
    (root / "truth.json").write_text(json.dumps({"sites": [{"host": host, "parallel_pairs": pairs}]}))
    server = TestWebServer(generate_web(seed=3, size=16, pages_per_site=2), host="127.0.0.1", port=0,
                           real_sites_dir=root)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def crawl_of_site(server, host: str, start_url: str, monkeypatch, settings, *, name: str, budget: int = 30):
    """A crawl restricted to ``host``, run with synchronous jobs from ``start_url``; yields it finished."""
    from crawlweb.services.network import fetcher_for

    route_through(server, monkeypatch)
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    crawl = Crawl.objects.create(name=name, page_budget=budget, config={"url_rules": f"allow HOST:^{re.escape(host)}$"})
    start_crawl(crawl, extra_urls=[start_url])
    try:
        yield crawl
    finally:
        fetcher_for.cache_clear()
