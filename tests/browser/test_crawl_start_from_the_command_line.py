"""Crawls started with `manage.py crawl start` from the command line, then read in Chromium as an
operator reads them: the crawl page's bilingual sites and pairing state, each bilingual site's page
with its verdict and its kept pairs.

In the embedded default (no REDIS_URL) the crawl's jobs run in the command's own threads: the
command used to exit as the crawl left "running", killing the jobs that write the last pairing pass
and the site verdicts (a whole crawl ended with 0 verdicts). Here the page must show them all once
the command has returned, for two crawls started one right after the other. On RQ workers, a second
crawl started while the first one's scoring jobs still held the queue finished after its seed
pages, "frontier empty", its detector's jobs (which add the backlinks' Targets) queued behind them."""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from crawlweb.crawler.urls import normalize_url
from crawlweb.jobs.queueing import enqueue
from crawlweb.models import Crawl
from evaluation.services.pairing_state import pairing_state
from tests.browser.test_take_over_crawl import ROOT, runner_env
from tests.discovery_integration.conftest import TESTWEB_BACKLINKS, bilingual_homes
from tests.evaluation_integration.helpers import home_urls, pick_sites, site_name_of, truth_pairs
from tests.integration.helpers import start_rq_worker
from tests.integration.job_health_jobs import hold_crawl

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WAIT_S = 400  # the longest wait for one thing on a loaded two-core machine
FIRST = [("bilingual-sr-en", "dirs"), ("bilingual-sr-en", "suffix-dot"), ("mono-sr-cyrl", "single")]
SECOND = [("bilingual-sr-en", "query"), ("bilingual-sr-en", "dirs"), ("mono-sr-latn", "single")]


def crawl_start(env: dict, name: str, *args: str, log: Path) -> subprocess.Popen:
    with open(log, "w") as out:
        return subprocess.Popen([sys.executable, "manage.py", "crawl", "start", "--name", name, *args], cwd=ROOT,
                                env=env, stdout=out, stderr=subprocess.STDOUT)


def returned(process: subprocess.Popen, log: Path) -> str:
    try:
        code = process.wait(WAIT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail(f"crawl start still ran after {WAIT_S} s:\n{log.read_text()}")
    assert code == 0, log.read_text()
    return log.read_text()


def crawl_named(name: str) -> Crawl:
    return Crawl.objects.get(name=name)


def site_url_pairs(page) -> set[frozenset]:
    rows = page.locator("#site-pairs tbody tr.kept")
    return {frozenset(normalize_url(rows.nth(i).locator("td").nth(column).inner_text().strip()) for column in (0, 1))
            for i in range(rows.count())}


def assert_the_page_shows_what_the_crawl_found(page, base_url: str, crawl: Crawl, sites: list[dict]) -> None:
    """Its bilingual sites (exactly the picked ones), every site judged, the pairs final; the pairs list
    and each bilingual site's page with its verdict: every true pair kept, and nothing else."""
    page.goto(f"{base_url}/crawls/{crawl.pk}/")
    assert page.locator("#crawl-status dd.state-finished").count() == 1
    bilingual = {site_name_of(s) for s in sites if s["bilingual_sr_en"]}
    listed = page.locator("#bilingual-sites tbody tr td:first-child a")
    assert {listed.nth(i).inner_text() for i in range(listed.count())} == bilingual, page.locator(
        "#bilingual-sites").inner_text()
    assert page.locator("[data-count=sites-judged]").inner_text() == str(len(sites))
    state = page.locator("#pairing-state").inner_text()
    assert state.startswith("Pairs are final: the pass after the crawl ended paired every site"), state
    assert int(page.locator("[data-count=pairs-kept]").inner_text()) == sum(
        len(truth_pairs(s)) for s in sites if s["bilingual_sr_en"])
    truly = set().union(*(truth_pairs(s) for s in sites if s["bilingual_sr_en"]))
    page.goto(f"{base_url}/pairs/crawls/{crawl.pk}/pairs/?kept=kept")  # the pairs list, kept ones (25 a page)
    rows = page.locator("#pair-list tbody tr.kept")
    assert {frozenset(normalize_url(rows.nth(i).locator(f"td:nth-child({column}) a").inner_text()) for column in (3, 4))
            for i in range(rows.count())} == truly
    for site in (s for s in sites if s["bilingual_sr_en"]):
        page.goto(f"{base_url}/crawls/{crawl.pk}/")
        with page.expect_navigation():
            page.click(f"#bilingual-sites a:text-is('{site_name_of(site)}')")
        assert page.locator("#verdict .verdict-bilingual").count() == 1
        assert site_url_pairs(page) == truth_pairs(site), site["host"]


def test_crawl_start_returns_with_verdicts_and_final_pairs_stored_and_so_does_the_next_one_right_after(
        page, live_server, staff_login, crawl_settings, through_test_web, tmp_path):
    env = runner_env(tmp_path, through_test_web.proxy_url)  # the embedded default: jobs in the command's threads
    staff_login()
    truth = through_test_web.web.truth()
    first_sites = pick_sites(truth, FIRST)
    second_sites = pick_sites({"sites": [s for s in truth["sites"] if s not in first_sites]}, SECOND)
    for name, sites in (("first", first_sites), ("second", second_sites)):  # the second right after the first
        urls = [arg for url in home_urls(sites) for arg in ("--url", url)]
        log = tmp_path / f"{name}.log"
        output = returned(crawl_start(env, name, "--strategy", "bfs", *urls, "--budget", "100", "--in-site-only",
                                      "--host-interval", "0", log=log), log)
        crawl = crawl_named(name)
        assert crawl.state == Crawl.State.FINISHED and "frontier empty" in crawl.status_message, output
        assert_the_page_shows_what_the_crawl_found(page, live_server.url, crawl, sites)


def obfc_config(tmp_path: Path) -> Path:
    """The test web's backlink service at its own pace (the http provider's default rate is a real one's)."""
    path = tmp_path / "obfc.json"
    path.write_text(json.dumps({"extra_config": {"backlinks": {"rate": TESTWEB_BACKLINKS["rate"]}, "random_seed": 1}}))
    return path


def wait_until(what: str, check) -> None:
    deadline = time.monotonic() + WAIT_S
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {WAIT_S} s for {what}")
        time.sleep(0.5)


@pytest.mark.services
def test_on_rq_a_crawl_started_while_the_last_one_s_scoring_holds_the_queue_still_finds_its_sites(
        page, live_server, staff_login, settings, crawl_settings, through_test_web, empty_queues, tmp_path):
    """One worker runs the crawl steps, one the scoring and detection. The first crawl's last job is
    still running on the score worker when the second starts: the second's detector jobs queue behind it."""
    settings.REDIS_URL = settings.RQ_QUEUES["crawl"]["URL"]
    env = {**runner_env(tmp_path, through_test_web.proxy_url), "REDIS_URL": settings.REDIS_URL}
    workers = [start_rq_worker(["crawl"], settings.REDIS_URL, tmp_path, through_test_web.proxy_url),
               start_rq_worker(["score", "train"], settings.REDIS_URL, tmp_path, through_test_web.proxy_url)]
    seeds = [arg for url in bilingual_homes(through_test_web) for arg in ("--url", url)]
    obfc = ["--strategy", "obfc", *seeds, "--budget", "20", "--host-interval", "0", "--backlinks", "graph,http",
            "--backlink-url-template", "http://backlinks.test/?url={url}", "--config", str(obfc_config(tmp_path))]
    release = tmp_path / "release"
    try:
        returned(crawl_start(env, "first", *obfc, log=tmp_path / "first.log"), tmp_path / "first.log")
        first = crawl_named("first")
        # the first crawl's scoring, still going on (until released, or WAIT_S)
        enqueue(hold_crawl, first.pk, str(release), float(WAIT_S), queue_name="score")
        second_log = tmp_path / "second.log"
        second_run = crawl_start(env, "second", *obfc, log=second_log)
        wait_until("the second crawl's seed pages", lambda: Crawl.objects.filter(name="second", pages_fetched__gte=2)
                   .exists())
        time.sleep(4 * 1.0)  # nothing to lease, its detector's jobs queued: it used to finish after a second of this
        assert crawl_named("second").state == Crawl.State.RUNNING, crawl_named("second").status_message
        release.write_text("go\n")
        returned(second_run, second_log)
        second = crawl_named("second")
        for crawl in (first, second):
            wait_until(f"crawl {crawl.pk}'s pairs final", lambda crawl=crawl: pairing_state(
                Crawl.objects.get(pk=crawl.pk)).final)
    finally:
        release.write_text("go\n")
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(60)

    staff_login()
    truly = {site_name_of(s) for s in through_test_web.web.truth()["sites"] if s["bilingual_sr_en"]}
    seed_sites = {url.split("/")[2].removeprefix("www.") for url in bilingual_homes(through_test_web)}
    for crawl in (first, second):
        page.goto(f"{live_server.url}/crawls/{crawl.pk}/")
        assert page.locator("#crawl-status dd.state-finished").count() == 1
        status = page.locator("#crawl-status .status-message").inner_text()
        assert "budget spent" in status, status  # not "frontier empty" after its seed pages
        listed = page.locator("#bilingual-sites tbody tr td:first-child a")
        found = {listed.nth(i).inner_text() for i in range(listed.count())}
        assert found & seed_sites and found <= truly, (crawl.pk, found)
        assert page.locator("#pairing-state").inner_text().startswith("Pairs are final")
