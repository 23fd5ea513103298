"""`manage.py crawl start` in the embedded default (SQLite, in-process jobs, no REDIS_URL) returns only
after the crawl's own follow-up jobs have run: the last crawl-wide pairing pass and the site verdicts
are stored when the command exits. It used to exit as the crawl left "running", killing them (a whole
crawl ended with 0 site verdicts)."""
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from crawlweb.models import Crawl
from evaluation.models import CandidatePair, CrawlScoring
from frontier.models import SiteVerdict
from tests.evaluation_integration.helpers import home_urls, pick_sites

ROOT = Path(__file__).resolve().parents[2]
KINDS = [("bilingual-sr-en", "dirs"), ("bilingual-sr-en", "suffix-dot"), ("mono-sr-cyrl", "single")]


def embedded_env(var_dir: Path, proxy_url: str) -> dict:
    """The embedded default: no DATABASE_URL, no REDIS_URL; the test web through its proxy."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "JOBS_INPROCESS_MODE")}
    env.update(VAR_DIR=str(var_dir), WARC_DIR=str(var_dir / "warc"), HTTP_PROXY=proxy_url, http_proxy=proxy_url,
               NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost", CRAWLER_HOST_INTERVAL="0",
               CRAWLER_IDLE_FINISH_SECONDS="3", CRAWLER_READ_TIMEOUT="5")
    return env


def manage(env: dict, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def count(database: Path, model, where: str, *params) -> int:
    with sqlite3.connect(database) as db:
        return db.execute(f"SELECT count(*) FROM {model._meta.db_table} WHERE {where}", params).fetchone()[0]


def value(database: Path, model, column: str, where: str, *params):
    with sqlite3.connect(database) as db:
        return db.execute(f"SELECT {column} FROM {model._meta.db_table} WHERE {where}", params).fetchone()[0]


def test_crawl_start_returns_with_the_site_verdicts_and_the_last_pass_stored(test_web_server, tmp_path):
    env = embedded_env(tmp_path, test_web_server.proxy_url)
    manage(env, "migrate", "-v0")
    sites = pick_sites(test_web_server.web.truth(), KINDS)
    urls = [arg for url in home_urls(sites) for arg in ("--url", url)]
    done = manage(env, "crawl", "start", "--name", "whole", "--strategy", "bfs", *urls, "--budget", "40",
                  "--in-site-only", "--host-interval", "0")

    database = tmp_path / "crawl.sqlite3"
    crawl_id = value(database, Crawl, "id", "name = ?", "whole")
    assert value(database, Crawl, "state", "id = ?", crawl_id) == Crawl.State.FINISHED, done.stdout
    pages = value(database, Crawl, "pages_fetched", "id = ?", crawl_id)
    sites_with_pages = len({s["host"] for s in sites})
    assert count(database, SiteVerdict, "crawl_id = ?", crawl_id) == sites_with_pages, done.stdout
    assert count(database, SiteVerdict, "crawl_id = ? AND bilingual", crawl_id) == 2, done.stdout
    # The finishing pass saw every page, and its pairs are there.
    assert value(database, CrawlScoring, "pages_at_last_pass", "crawl_id = ?", crawl_id) == pages
    assert value(database, CrawlScoring, "passes", "crawl_id = ?", crawl_id) >= 1
    assert count(database, CandidatePair, "crawl_id = ? AND kept", crawl_id) > 0
