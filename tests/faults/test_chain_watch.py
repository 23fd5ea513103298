"""The workers' chain watch: a running crawl with no step job queued or started gets its chains
back once it has been seen so twice in a row; a crawl whose chain is queued, or that is paused, does not."""
import django_rq
import pytest
from rq.registry import StartedJobRegistry

from crawlweb.jobs.chain_watch import LOCK_KEY, ChainWatch, chained_crawls, chainless
from crawlweb.jobs.crawl_step import crawl_step
from crawlweb.models import Crawl


def test_a_crawl_is_revived_only_when_seen_without_a_chain_twice_in_a_row():
    revive, seen = chainless(running={1, 2, 3}, chained={2}, seen_before=set())
    assert revive == set() and seen == {1, 3}
    revive, seen = chainless(running={1, 2, 3}, chained={2, 3}, seen_before=seen)
    assert revive == {1} and seen == set()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_watch_enqueues_the_chains_of_a_running_crawl_that_lost_them(settings, empty_queues):
    settings.REDIS_URL = settings.RQ_QUEUES["crawl"]["URL"]
    queue = django_rq.get_queue("crawl")
    # Steps of earlier tests' killed workers stay listed as started until their heartbeat expires.
    queue.connection.delete(StartedJobRegistry(queue=queue).key)
    lost = Crawl.objects.create(name="lost its chain", state=Crawl.State.RUNNING, parallel_steps=2)
    chained = Crawl.objects.create(name="has its chain", state=Crawl.State.RUNNING, parallel_steps=1)
    paused = Crawl.objects.create(name="paused", state=Crawl.State.PAUSED, parallel_steps=1)
    queue.enqueue(crawl_step, chained.pk)
    assert chained_crawls(queue) == {chained.pk}

    watch = ChainWatch(interval_s=1)
    try:
        assert watch.look() == []  # first sight: a step may be between the queue and the registry
        queue.connection.delete(LOCK_KEY)  # as if the interval had passed
        assert watch.look() == [lost.pk]
        steps = [job.args for job in queue.get_jobs() if job.func_name.endswith("crawl_step.crawl_step")]
        assert sorted(steps) == sorted([(chained.pk,), (lost.pk,), (lost.pk,)])
        assert paused.pk not in chained_crawls(queue)
        queue.connection.delete(LOCK_KEY)
        assert watch.look() == []  # its chains are queued now
    finally:
        queue.empty()
        queue.connection.delete(LOCK_KEY)
