"""The embedded mode's chain watch (crawlweb/jobs/embedded_watch.py), in this process, jobs on its own
threads: a crawl it runs whose chain stopped gets it back once seen so twice; a crawl whose process
ended is taken over by a web server's watch (not by a command's); one whose process runs is left to it."""
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from crawlweb.jobs.embedded_watch import EmbeddedChainWatch
from crawlweb.models import Crawl
from crawlweb.process_identity import this_process
from crawlweb.jobs.chain_runner import record_runner
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.targets import Candidate, add_targets
from frontier.models import Target

pytestmark = pytest.mark.django_db(transaction=True)  # the job threads read what the test wrote
ROOT = Path(__file__).resolve().parents[2]
PRINT_NAME_AND_WAIT = ("import sys, time; from crawlweb.process_identity import this_process; "
                       "print(this_process(), flush=True); time.sleep(float(sys.argv[1]))")


@pytest.fixture
def running_crawl(settings, crawl_settings, through_test_web):
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "thread"
    site = next(s for s in through_test_web.web.truth()["sites"] if s["bilingual_sr_en"] and s["robots"] == "none")

    def make(name: str, runner: str) -> Crawl:
        crawl = Crawl.objects.create(name=name, page_budget=3, follow_out_of_site=False)
        add_targets(crawl, [Candidate(next(iter(site["home_urls"].values())))], origin=Target.Origin.SEED,
                    config=CrawlConfig.for_crawl(crawl))
        Crawl.objects.filter(pk=crawl.pk).update(state=Crawl.State.RUNNING, runner=runner)
        return crawl
    return make


def process_name(seconds: float) -> tuple[subprocess.Popen, str]:
    child = subprocess.Popen([sys.executable, "-c", PRINT_NAME_AND_WAIT, str(seconds)], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
    return child, child.stdout.readline().strip()


def test_a_chain_that_stopped_in_this_process_is_queued_again_when_seen_twice(running_crawl, run_jobs):
    crawl = running_crawl("stopped here", "")
    record_runner(crawl.pk)  # this process runs it, and no step of it is queued: as after a failed step
    watch = EmbeddedChainWatch(60, take_over_orphans=False)
    assert watch.look() == []  # once: perhaps between two steps
    assert watch.look() == [crawl.pk]
    run_jobs()
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED and crawl.pages_fetched == 3, crawl.last_error


def test_the_watch_renews_the_heartbeat_of_the_crawls_this_process_runs(running_crawl):
    crawl = running_crawl("mine", str(this_process()))
    long_ago = timezone.now() - timedelta(hours=1)
    Crawl.objects.filter(pk=crawl.pk).update(runner_seen_at=long_ago)
    EmbeddedChainWatch(60, take_over_orphans=False).look()
    crawl.refresh_from_db()
    assert crawl.runner_seen_at > long_ago


def test_a_web_servers_watch_takes_over_a_crawl_whose_process_ended_and_leaves_a_live_ones(running_crawl, run_jobs):
    dead, dead_name = process_name(0)
    dead.wait(timeout=60)
    alive, alive_name = process_name(120)
    try:
        orphan, owned = running_crawl("orphan", dead_name), running_crawl("owned", alive_name)
        assert EmbeddedChainWatch(60, take_over_orphans=False).look() == []  # a command leaves them
        assert EmbeddedChainWatch(60, take_over_orphans=True).look() == [orphan.pk]
        run_jobs()
        orphan.refresh_from_db()
        owned.refresh_from_db()
        assert orphan.pages_fetched == 3 and orphan.runner == str(this_process())
        assert (owned.state, owned.runner, owned.pages_fetched) == (Crawl.State.RUNNING, alive_name, 0)
    finally:
        alive.kill()
        alive.wait(timeout=30)


def test_a_runner_on_another_machine_is_judged_by_its_heartbeat(running_crawl, run_jobs, settings):
    settings.CRAWLER_CHAIN_WATCH_SECONDS = 10  # silent for three intervals: gone
    elsewhere = f"{this_process().host}-elsewhere pid 4242 start 786eb0c9.1"
    heard, silent = running_crawl("heard of", elsewhere), running_crawl("silent", elsewhere)
    Crawl.objects.filter(pk=heard.pk).update(runner_seen_at=timezone.now() - timedelta(seconds=5))
    Crawl.objects.filter(pk=silent.pk).update(runner_seen_at=timezone.now() - timedelta(seconds=31))
    assert EmbeddedChainWatch(10, take_over_orphans=True).look() == [silent.pk]
    run_jobs()
    silent.refresh_from_db()
    assert silent.pages_fetched == 3 and silent.runner == str(this_process())
    assert Crawl.objects.get(pk=heard.pk).runner == elsewhere
