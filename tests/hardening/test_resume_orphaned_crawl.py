"""The console's Resume on a crawl left running by a process that died (issue 34, finding 4): it used
to answer "crawl 30 is running; cannot go to running" (Pause, then Resume, revived it). Now Resume
runs such a crawl's steps here; a crawl whose process still runs is refused, naming that process.
The embedded mode's watch does the same by itself for the web server (test_crawls_nobody_runs.py)."""
import subprocess
import sys
from pathlib import Path

import pytest

from crawlweb.models import Crawl
from crawlweb.process_identity import this_process
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.targets import Candidate, add_targets
from frontier.models import Target

pytestmark = pytest.mark.django_db(transaction=True)  # the resumed steps are queued when it commits
ROOT = Path(__file__).resolve().parents[2]
PRINT_NAME_AND_WAIT = ("import sys, time; from crawlweb.process_identity import this_process; "
                       "print(this_process(), flush=True); time.sleep(float(sys.argv[1]))")


def another_process(seconds: float) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", PRINT_NAME_AND_WAIT, str(seconds)], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)


@pytest.fixture
def left_running(settings, crawl_settings, through_test_web):
    """A running crawl of one test-web site with its seed pending, its runner named by the caller."""
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"  # Resume runs the crawl to its budget
    site = next(s for s in through_test_web.web.truth()["sites"] if s["bilingual_sr_en"] and s["robots"] == "none")

    def make(runner: str) -> Crawl:
        crawl = Crawl.objects.create(name="left running", page_budget=3, follow_out_of_site=False)
        add_targets(crawl, [Candidate(next(iter(site["home_urls"].values())))], origin=Target.Origin.SEED,
                    config=CrawlConfig.for_crawl(crawl))
        Crawl.objects.filter(pk=crawl.pk).update(state=Crawl.State.RUNNING, runner=runner)
        return crawl
    return make


def resume(client, crawl: Crawl) -> str:
    """Press Resume on the crawl's page; the page shown next."""
    return client.post(f"/crawls/{crawl.pk}/resume/", follow=True).content.decode()


def test_resume_runs_a_crawl_whose_process_has_ended(admin_client, left_running):
    dead = another_process(0)
    runner = dead.stdout.readline().strip()
    dead.wait(timeout=60)
    crawl = left_running(runner)

    page = resume(admin_client, crawl)

    assert "resume: done." in page and "cannot go to running" not in page
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED and crawl.pages_fetched == 3, (crawl.status_message, crawl.last_error)
    assert crawl.runner == str(this_process())


def test_resume_refuses_a_crawl_whose_process_still_runs_and_names_it(admin_client, left_running):
    alive = another_process(120)
    try:
        runner = alive.stdout.readline().strip()
        crawl = left_running(runner)
        page = resume(admin_client, crawl)
        assert (f"crawl {crawl.pk} is running: its steps run in process {alive.pid} on host "
                f"{this_process().host}; nothing to resume") in page
        crawl.refresh_from_db()
        assert (crawl.runner, crawl.pages_fetched) == (runner, 0)
    finally:
        alive.kill()
        alive.wait(timeout=30)
    assert "resume: done." in resume(admin_client, crawl)  # now it has ended: Resume runs it here
    crawl.refresh_from_db()
    assert crawl.pages_fetched == 3 and crawl.runner == str(this_process())
