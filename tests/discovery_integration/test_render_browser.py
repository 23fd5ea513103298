"""One Chromium per worker process for the BS Detector's renders (docs/script-switches.md): the
detector jobs of two script-switch sites render with the same browser, in the embedded mode and on a
real RQ worker; a browser that crashed is replaced by the next render; none outlives its process."""
import os
import signal
import time

import pytest

from crawlweb.crawler.browser_host import close_all_hosts
from crawlweb.models import Crawl
from crawlweb.jobs.crawl_control import start_crawl
from crawlweb.testweb.script_sites import BROWSER_LANGUAGE_HOST, FRAGMENT_HOST
from frontier.models import SiteVerdict
from tests.chromium_processes import BrowserWatch, alive, browsers_under
from tests.discovery_integration.conftest import discovery_crawl
from tests.integration.helpers import start_rq_worker

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]
SCRIPT_SITES = [f"http://{BROWSER_LANGUAGE_HOST}/", f"http://{FRAGMENT_HOST}/"]


@pytest.fixture
def no_browser_left():
    close_all_hosts()
    others = browsers_under(os.getpid())  # a UI test's browser, say: not the renderer's
    yield
    close_all_hosts()
    assert browsers_under(os.getpid()) - others == set(), "closing the process's browsers leaves no Chromium"


def rendered_verdicts(crawl: Crawl) -> dict[str, list[dict]]:
    """Site name -> its verdict's renders, for the sites found bilingual."""
    return {v.site.name: v.evidence.get("rendered", [])
            for v in SiteVerdict.objects.filter(crawl=crawl, bilingual=True).select_related("site")}


def assert_both_sites_rendered(crawl: Crawl) -> None:
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    renders = rendered_verdicts(crawl)
    for host in (BROWSER_LANGUAGE_HOST, FRAGMENT_HOST):
        site = host.removeprefix("www.")
        assert renders.get(site), f"{site} was not found bilingual by a render: {renders}"
        assert all(r["ms"] > 0 and not r.get("error") for r in renders[site]), renders[site]


def test_two_detector_jobs_in_one_process_share_one_chromium_and_a_crashed_one_is_replaced(
        sync_jobs, through_test_web, crawl_settings, no_browser_left):
    me = os.getpid()
    with BrowserWatch(me) as watch:
        crawl = discovery_crawl(through_test_web, "cobfc", budget=30, seeds=SCRIPT_SITES)
        start_crawl(crawl)
    assert_both_sites_rendered(crawl)  # each site's detector job rendered its pages
    assert len(watch.new) == 1, f"the two detector jobs started {len(watch.new)} Chromium processes"
    (first,) = watch.new
    assert browsers_under(me) - watch.before == {first}, "the browser stays for the next job"

    os.kill(first, signal.SIGKILL)  # as the kernel's OOM killer would
    deadline = time.monotonic() + 10
    while alive(first) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(first)
    crawl = discovery_crawl(through_test_web, "cobfc", budget=30, seeds=SCRIPT_SITES)
    start_crawl(crawl)
    assert_both_sites_rendered(crawl)  # the first render after the crash already had a browser
    now = browsers_under(me) - watch.before
    assert len(now) == 1 and first not in now, f"a new Chromium replaced the killed one: {now}"


def test_the_embedded_modes_job_threads_render_with_one_chromium(settings, through_test_web, crawl_settings,
                                                                  run_jobs, no_browser_left):
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "thread"  # the web server's own job threads
    with BrowserWatch(os.getpid()) as watch:
        crawl = discovery_crawl(through_test_web, "cobfc", budget=30, seeds=SCRIPT_SITES)
        start_crawl(crawl)
        run_jobs(240)
    assert_both_sites_rendered(crawl)
    assert len(watch.new) == 1, f"the job threads started {len(watch.new)} Chromium processes"


@pytest.mark.services
def test_an_rq_worker_renders_the_detector_jobs_of_two_sites_with_one_chromium_and_closes_it_at_exit(
        settings, through_test_web, crawl_settings, empty_queues, tmp_path, no_browser_left):
    settings.REDIS_URL = settings.RQ_QUEUES["crawl"]["URL"]
    crawl = discovery_crawl(through_test_web, "cobfc", budget=30, seeds=SCRIPT_SITES)
    start_crawl(crawl)
    log = tmp_path / "worker.log"
    worker = start_rq_worker(["crawl", "score", "train"], settings.REDIS_URL, tmp_path,
                             proxy_url=through_test_web.proxy_url, burst=True, log_to=log)
    try:
        with BrowserWatch(worker.pid) as watch:
            assert worker.wait(timeout=240) == 0, log.read_text(errors="replace")[-3000:]
    finally:
        if worker.poll() is None:
            worker.kill()
    assert_both_sites_rendered(crawl)
    assert len(watch.new) == 1, f"the worker started {len(watch.new)} Chromium processes for two detector jobs"
    assert log.read_text(errors="replace").count("started Chromium") == 1, "its log says so too"
    (browser,) = watch.new
    assert not alive(browser), "the worker closed its Chromium when it exited"
