"""After each crawl step: schedule score_site for the sites whose pages were just stored.

Debounced with a ScoreClaim row per (crawl, site): a site is enqueued only when this call
flips its claim from "not pending" to "pending" (a conditional UPDATE, so two workers cannot
both win), and score_site releases the claim when it starts.  A claim pending for longer than
STALE_AFTER (its job was lost with a dead worker) may be taken again.
"""
from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from crawlweb.jobs.queueing import enqueue
from crawlweb.models import Page
from evaluation.models import ScoreClaim
from evaluation.services.config import PairsSettings
from evaluation.services.inputs import canonical_site_ids

STALE_AFTER = timedelta(minutes=30)


def claim(crawl_id: int, site_id: int) -> bool:
    """True when the caller won the right to enqueue score_site for the site."""
    now = timezone.now()
    won = ScoreClaim.objects.filter(crawl_id=crawl_id, site_id=site_id).filter(
        Q(pending=False) | Q(claimed_at__lt=now - STALE_AFTER)).update(pending=True, claimed_at=now)
    if won:
        return True
    if ScoreClaim.objects.filter(crawl_id=crawl_id, site_id=site_id).exists():
        return False
    try:
        with transaction.atomic():
            ScoreClaim.objects.create(crawl_id=crawl_id, site_id=site_id, pending=True, claimed_at=now)
        return True
    except IntegrityError:  # another worker created it first: its job will score the site
        return False


def release_claim(crawl_id: int, site_id: int) -> None:
    ScoreClaim.objects.filter(crawl_id=crawl_id, site_id=site_id).update(pending=False)


def after_step(crawl, step) -> None:
    if not step.stored_page_ids:
        return
    from evaluation.jobs import score_site

    site_ids = Page.objects.filter(pk__in=step.stored_page_ids).values_list("site_id", flat=True).distinct()
    for site_id in sorted(canonical_site_ids(crawl.pk, site_ids, PairsSettings.current().group_max_sites)):
        if claim(crawl.pk, site_id):
            enqueue(score_site, crawl.pk, site_id, queue_name="score")
