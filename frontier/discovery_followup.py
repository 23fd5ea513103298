"""Follow-up after each crawl step (registered in crawlweb.services.followups.FOLLOWUPS):
- the BS Detector job for every site whose first HTML page was just stored;
- for COBFC, a `train` job when the crawl has fetched another ``learning_interval`` pages.
"""
from __future__ import annotations

from crawlweb.jobs.queueing import enqueue
from crawlweb.models import Crawl, Page
from frontier.models import ClassifierModel, SiteVerdict
from frontier.strategies import strategy_for

_train_enqueued: set[tuple[int, int]] = set()  # (crawl, iteration) asked for by this process


def after_step(crawl, step) -> None:
    strategy = strategy_for(crawl)
    if strategy.detects or "detector" in (crawl.config or {}):
        enqueue_detection(crawl, step.stored_page_ids)
    if strategy.name == "cobfc":
        enqueue_learning(crawl, strategy)


def enqueue_detection(crawl, page_ids: list[int]) -> int:
    from frontier.detector_job import detect_site  # scikit-learn: only for crawls that detect

    pages = (Page.objects.filter(pk__in=page_ids, crawl=crawl, status_code=200, content_type="text/html")
             .order_by("id").values_list("id", "site_id"))
    decided = set(SiteVerdict.objects.filter(crawl=crawl, site_id__in={s for _, s in pages})
                  .values_list("site_id", flat=True))
    queued = 0
    for page_id, site_id in pages:
        if site_id in decided:
            continue
        decided.add(site_id)  # one detection per site: the first page stored
        enqueue(detect_site, crawl.pk, page_id, queue_name="score")
        queued += 1
    return queued


def enqueue_learning(crawl, strategy) -> bool:
    from frontier.learning import train

    fetched = Crawl.objects.filter(pk=crawl.pk).values_list("pages_fetched", flat=True).first() or 0
    iteration = fetched // strategy.settings.learning_interval(crawl.page_budget)
    if iteration < 1 or (crawl.pk, iteration) in _train_enqueued:
        return False
    if ClassifierModel.objects.filter(crawl=crawl, version__gte=iteration).exists():
        return False
    _train_enqueued.add((crawl.pk, iteration))
    enqueue(train, crawl.pk, iteration, queue_name="train")
    return True
