"""Deep-page rounds: the guesses of the pass after a crawl's end are fetched by the crawl itself.

The crawl-wide pass that follows the finish re-pairs every site under one global view, and its
deep-page guesses (the top patterns by global credibility, which a site scored alone during the crawl
had not seen) are checked by the regular check_deep_pages jobs; a page found becomes a Target of a
crawl that has already finished. When the last of those jobs ends, the crawl runs again for them
(crawl_control.resume_finished_crawl: only with budget and time left, at most PAIRS_DEEP_ROUNDS
times since it was started), its finish queues the next pass, which pairs the pages fetched and
may guess again; the pairs are final only after the last round (pairing_state.py).
"""
from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from crawlweb.models import Crawl
from crawlweb.jobs.crawl_control import resume_finished_crawl
from evaluation.models import DeepCheck
from evaluation.services.config import PairsSettings
from evaluation.services.deep import QUEUED_STALE_AFTER
from frontier.models import Target


def checks_in_flight(crawl_id: int) -> bool:
    """A check job of the crawl is queued or running: some guess is claimed (queued_at) and unchecked."""
    return DeepCheck.objects.filter(crawl_id=crawl_id, checked_at__isnull=True,
                                    queued_at__gte=timezone.now() - QUEUED_STALE_AFTER).exists()


def found_pages_waiting(crawl_id: int) -> int:
    """Targets of deep-page guesses the crawl has not fetched and may fetch now."""
    return (Target.objects.filter(crawl_id=crawl_id, origin=Target.Origin.DEEP_GUESS, state=Target.State.PENDING)
            .filter(Q(due_at__isnull=True) | Q(due_at__lte=timezone.now())).count())


def resume_for_found_pages(crawl_id: int, cfg: PairsSettings | None = None) -> bool:
    """After a check job: when it was the crawl's last one and the crawl has finished with pages they
    found still to fetch, run the crawl again for them; True when this call resumed it."""
    cfg = cfg or PairsSettings.current()
    if cfg.deep_rounds <= 0 or not Crawl.objects.filter(pk=crawl_id, state=Crawl.State.FINISHED).exists():
        return False
    if checks_in_flight(crawl_id):  # the last job to end decides
        return False
    waiting = found_pages_waiting(crawl_id)
    if not waiting:
        return False
    rounds = Crawl.objects.filter(pk=crawl_id).values_list("resumed_rounds", flat=True).first() or 0
    reason = (f"running again for {waiting} page{'s' if waiting != 1 else ''} found by deep-page guesses after "
              f"the end (round {rounds + 1} of at most {cfg.deep_rounds})")
    return resume_finished_crawl(crawl_id, reason, max_rounds=cfg.deep_rounds)
