"""Follow-ups of discovery (registered in crawlweb.services.followups):
- after each crawl step: the BS Detector for the sites whose first HTML pages were just stored --
  decided in the step when the decision takes no request to the site (no candidate link: most sites),
  else in a detector job on the "score" queue; for COBFC, a `train` job when the crawl has fetched another ``learning_interval`` pages;
- when the frontier runs dry: a back/forward crawl refills it (frontier.strategies.refill);
- when its steps are taken over from a process that died (embedded mode): the detections and the
  learning that process had queued, lost with it, are queued again.
"""
from __future__ import annotations

import logging

from django.db.models import Min

from crawlweb.jobs.queueing import enqueue
from crawlweb.models import Crawl, Page
from crawlweb.services.followups import StepResult, run_batch_followups
from frontier.discovery_settings import SITES_PER_DETECTOR_JOB
from frontier.models import ClassifierModel, SiteVerdict
from frontier.strategies import strategy_for

log = logging.getLogger(__name__)
_train_enqueued: set[tuple[int, int]] = set()  # (crawl, iteration) asked for by this process
TAKEOVER_CHUNK = 500  # page ids per query when detections are queued again (SQLite's variable limit)


def after_step(crawl, step) -> None:
    strategy = strategy_for(crawl)
    if strategy.detects or "detector" in (crawl.config or {}):
        enqueue_detection(crawl, step.stored_page_ids, decide_now=True)
    if strategy.name == "cobfc":
        enqueue_learning(crawl, strategy)


def enqueue_detection(crawl, page_ids: list[int], decide_now: bool = False) -> int:
    """Queue the detection of every site whose first HTML page is among ``page_ids``, in jobs of at
    most SITES_PER_DETECTOR_JOB sites; returns the number of sites queued. ``decide_now``: first
    decide here the sites whose decision takes no request to them (detector_job.decide_without_requests):
    four in five sites of a large crawl, decided as soon as they are met rather than behind the
    score queue's backlog; only the others are queued."""
    from frontier.detector_job import decide_without_requests, detect_sites  # scikit-learn: crawls that detect

    pages = (Page.objects.filter(pk__in=page_ids, crawl=crawl, status_code=200, content_type="text/html")
             .order_by("id").values_list("id", "site_id"))
    decided = set(SiteVerdict.objects.filter(crawl=crawl, site_id__in={s for _, s in pages})
                  .values_list("site_id", flat=True))
    firsts = []
    for page_id, site_id in pages:
        if site_id in decided:
            continue
        decided.add(site_id)  # one detection per site: the first page stored
        firsts.append(page_id)
    if decide_now and firsts:
        # Only a site's very first page: an earlier one was queued by another step, and that job's
        # verdict (it may read a switch this page lacks) must not be pre-empted by this page's.
        wanted = set(firsts)
        site_of = {page_id: site_id for page_id, site_id in pages if page_id in wanted}
        sites_first = dict(Page.objects.filter(crawl=crawl, site_id__in=set(site_of.values()), status_code=200,
                                               content_type="text/html")
                           .order_by().values("site_id").annotate(first=Min("id")).values_list("site_id", "first"))
        now = [page_id for page_id, site_id in site_of.items() if sites_first.get(site_id) == page_id]
        try:
            decided_now = set(now) - set(decide_without_requests(crawl.pk, now)) if now else set()
            firsts = [page_id for page_id in firsts if page_id not in decided_now]
        except Exception:  # the jobs decide them all, as before; a site decided here is skipped there
            log.exception("crawl %s: deciding sites in the step failed; their detector jobs will", crawl.pk)
    for start in range(0, len(firsts), SITES_PER_DETECTOR_JOB):
        enqueue(detect_sites, crawl.pk, firsts[start:start + SITES_PER_DETECTOR_JOB], queue_name="score")
    return len(firsts)


def after_takeover(crawl) -> None:
    """The BS Detector for every site with an HTML page stored and no verdict yet (its detection was
    queued in the dead process, or never ran), and the learning iteration due, if any."""
    strategy = strategy_for(crawl)
    if strategy.detects or "detector" in (crawl.config or {}):
        decided = SiteVerdict.objects.filter(crawl=crawl).values("site_id")
        first_pages = sorted(Page.objects.filter(crawl=crawl, status_code=200, content_type="text/html")
                             .exclude(site_id__in=decided).order_by().values("site_id").annotate(first=Min("id"))
                             .values_list("first", flat=True))
        queued = sum(enqueue_detection(crawl, first_pages[start:start + TAKEOVER_CHUNK])
                     for start in range(0, len(first_pages), TAKEOVER_CHUNK))
        if queued:
            log.info("crawl %s taken over: %d sites' detection queued again", crawl.pk, queued)
    if strategy.name == "cobfc":
        enqueue_learning(crawl, strategy)


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


def when_dry(crawl) -> int:
    """A back/forward crawl with budget left refills its frontier rather than finish (refill.py)."""
    if not strategy_for(crawl).back_and_forth:
        return 0
    from frontier.strategies.refill import refill

    stage, new_ids = refill(crawl)
    if new_ids:
        log.info("crawl %s: queues dry, %s added %d Targets", crawl.pk, stage, len(new_ids))
        run_batch_followups(crawl, StepResult(crawl.pk, new_target_ids=new_ids))  # placement of the new Targets
    return len(new_ids)
