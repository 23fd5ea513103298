"""Follow-ups run after each crawl step; one that fails is recorded and the crawl goes on."""
import pytest

from crawlweb.models import Crawl
from crawlweb.services import followups
from crawlweb.jobs.crawl_control import start_crawl
from tests.integration.helpers import crawl_of_test_web

pytestmark = pytest.mark.django_db(transaction=True)
SEEN = []


def remember(crawl, step):
    SEEN.append((crawl.pk, list(step.new_target_ids), list(step.stored_page_ids)))


def explode(crawl, step):
    raise RuntimeError("scoring is broken")


def test_follow_ups_see_each_steps_new_targets_and_pages_and_failures_do_not_stop_the_crawl(
        through_test_web, crawl_settings, settings, monkeypatch, empty_queues):
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "sync"
    monkeypatch.setattr(followups, "FOLLOWUPS", [f"{__name__}.explode", f"{__name__}.remember"])
    SEEN.clear()
    crawl = crawl_of_test_web(through_test_web, budget=10, seeds=2)
    start_crawl(crawl)
    crawl.refresh_from_db()
    assert (crawl.state, crawl.pages_fetched) == (Crawl.State.FINISHED, 10)
    assert "explode: RuntimeError: scoring is broken" in crawl.last_error
    seed_call = SEEN[0]
    assert len(seed_call[1]) == 2 and seed_call[2] == [], "the seed Targets are announced at start"
    pages = [page for _, _, stored in SEEN for page in stored]
    assert len(pages) == len(set(pages)) == crawl.pages.count()
    assert sum(len(new) for _, new, _ in SEEN[1:]) == crawl.targets.count() - 2


STEP_SEEN = []


def remember_step(crawl, step):
    STEP_SEEN.append(list(step.stored_page_ids))


def test_step_follow_ups_run_once_per_step_over_all_its_batches(
        through_test_web, crawl_settings, monkeypatch, empty_queues, run_jobs):
    """Scoring (STEP_FOLLOWUPS) sees each stored page once, a step's batches together; placement
    (FOLLOWUPS) still runs after every batch."""
    crawl_settings.CRAWLER_BATCH_SIZE = 3
    crawl_settings.CRAWLER_STEP_SECONDS = 60.0
    monkeypatch.setattr(followups, "FOLLOWUPS", [f"{__name__}.remember"])
    monkeypatch.setattr(followups, "STEP_FOLLOWUPS", [f"{__name__}.remember_step"])
    SEEN.clear()
    STEP_SEEN.clear()
    crawl = crawl_of_test_web(through_test_web, budget=15, seeds=6)
    start_crawl(crawl)
    run_jobs()
    crawl.refresh_from_db()
    assert (crawl.state, crawl.pages_fetched) == (Crawl.State.FINISHED, 15)
    batches = [stored for _, _, stored in SEEN if stored]
    steps = [stored for stored in STEP_SEEN if stored]
    assert sorted(p for s in steps for p in s) == sorted(p for b in batches for p in b) \
        == sorted(crawl.pages.values_list("pk", flat=True))
    assert max(len(b) for b in batches) <= 3
    assert len(steps) < len(batches) and max(len(s) for s in steps) > 3, "a step's batches were scored apart"
