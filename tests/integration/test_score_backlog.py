"""The crawl steps do not outrun the score queue: when more than CRAWLER_SCORE_BACKLOG jobs wait there,
the next step queues behind them, so a crawl-first worker takes its turn at them before the crawl goes
on; the chain watch counts such a step as the crawl's chain, and the crawl still finishes."""
import pytest
import django_rq

from crawlweb.jobs import chain_watch
from crawlweb.jobs.crawl_step import crawl_step
from crawlweb.models import Crawl
from crawlweb.jobs.crawl_control import start_crawl
from tests.discovery_integration.conftest import discovery_crawl
from tests.integration.helpers import start_rq_worker
from tests.integration.job_health_jobs import wait_for_file

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]

WAITING = 4  # jobs already on the score queue, of no crawl
BACKLOG = 2


def func_names(queue) -> list[str]:
    return [job.func_name.rsplit(".", 1)[-1] for job in queue.jobs]


def test_a_step_queues_behind_a_long_score_queue_and_the_crawl_still_finishes(
        settings, crawl_settings, through_test_web, empty_queues, tmp_path, monkeypatch):
    settings.REDIS_URL = settings.RQ_QUEUES["crawl"]["URL"]
    monkeypatch.setenv("CRAWLER_SCORE_BACKLOG", str(BACKLOG))  # the workers' settings
    monkeypatch.setenv("CRAWLER_STEP_SECONDS", "0")  # a step is one batch (CRAWLER_BATCH_SIZE 16)
    score = django_rq.get_queue("score")
    release = tmp_path / "release"
    for _ in range(WAITING):
        score.enqueue(wait_for_file, str(release), 120.0)
    crawl = discovery_crawl(through_test_web, "bfs", budget=40)
    start_crawl(crawl)

    # A worker that takes only the crawl queue runs the first step (robots.txt first): the next one is
    # queued behind the backlog, and the worker has nothing left.
    only_steps = start_rq_worker(["crawl"], settings.REDIS_URL, tmp_path, through_test_web.proxy_url, burst=True)
    assert only_steps.wait(120) == 0
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.RUNNING and crawl.pages_fetched < 40, (crawl.pages_fetched,
                                                                           crawl.status_message)
    names = func_names(score)
    assert names[:WAITING] == ["wait_for_file"] * WAITING, names
    assert names[-1] == crawl_step.__name__, "the next step waits at the end of the score queue"
    assert not django_rq.get_queue("crawl").count

    # Such a step is the crawl's chain: the watch, looking twice, does not start another.
    watch = chain_watch.ChainWatch(1.0)
    for _ in range(2):
        score.connection.delete(chain_watch.LOCK_KEY)
        assert watch.look() == []

    # A crawl-first worker takes the score queue's jobs in turn, then the crawl goes on to its end.
    release.write_text("go\n")
    both = start_rq_worker(["crawl", "score", "train"], settings.REDIS_URL, tmp_path, through_test_web.proxy_url,
                           burst=True)
    assert both.wait(240) == 0
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED and crawl.pages_fetched >= 40, crawl.status_message
