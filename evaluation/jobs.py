"""Jobs of the pairing method (queue "score"): module-level, ids only, safe to run twice."""
from __future__ import annotations

import logging

from crawlweb.jobs.queueing import enqueue
from crawlweb.models import Crawl
from crawlweb.services.derived_writes import derived_writes
from crawlweb.services.site_language import settled_sites
from evaluation.services import deep as deep_service
from evaluation.services import deep_rounds
from evaluation.services import scoring
from evaluation.services.claims import claim_pass_for_late_pages, end_crawl_pass, release_claims, start_crawl_pass
from evaluation.services.config import PairsSettings
from evaluation.services.inputs import groups_of
from evaluation.services import site_verdicts

log = logging.getLogger(__name__)


def _record_error(crawl_id: int, what: str, error: Exception) -> None:
    Crawl.objects.filter(pk=crawl_id).update(last_error=f"{what}: {type(error).__name__}: {error}"[:5000])


def score_sites(crawl_id: int, site_ids: list[int]) -> None:
    """Score the sites one crawl step made due, in one job: most are tiny one-language sites, scored
    together (scoring.score_sites). A site that fails is recorded and the others are still scored;
    then the deep-page checks that are due and, in a crawl without the detector, the sites' verdicts."""
    release_claims(crawl_id, site_ids)  # pages stored from now on trigger a new job
    cfg = PairsSettings.current()
    failures = []

    def record(site_id, error):
        failures.append(error)
        _record_error(crawl_id, f"score_site({site_id if site_id is not None else 'one-language batch'})", error)

    with derived_writes():
        summary = scoring.score_sites(crawl_id, site_ids, cfg, on_error=record)
        _after_scoring(crawl_id, summary.groups, cfg)
    if failures:
        raise failures[-1]


def score_site(crawl_id: int, site_id: int) -> None:
    """Re-mine one site's patterns, move the global credibility by its difference, re-pair the site."""
    score_sites(crawl_id, [site_id])


def _after_scoring(crawl_id: int, groups: dict[int, list[int]], cfg: PairsSettings) -> None:
    if cfg.deep_checks:
        _check_deep_guesses_when_due(crawl_id, groups)
    crawl = Crawl.objects.filter(pk=crawl_id).first()
    members = sorted({member for group in groups.values() for member in group})
    if members and crawl is not None and site_verdicts.runs_during_crawl(crawl):
        site_verdicts.combine_site_verdicts(crawl_id, members)  # the verdicts arrive as they are scored


def score_crawl(crawl_id: int) -> None:
    """The crawl-wide pass: every site under one global credibility; then, when the crawl has
    finished a discovery round, the next discovery iteration."""
    from evaluation.services import discovery as discovery_service  # networkx: imported only when needed

    cfg = PairsSettings.current()
    finished = Crawl.objects.filter(pk=crawl_id, state=Crawl.State.FINISHED).exists()
    site_ids = scoring.pass_site_ids(crawl_id, cfg, every=finished)  # before the pass marks every site scored
    settled = settled_sites(crawl_id)  # most sites of the pass after the crawl: no page since their scoring
    start_crawl_pass(crawl_id)  # pages stored from now on may claim the next pass
    try:
        with derived_writes():
            scoring.score_crawl(crawl_id, cfg, site_ids=site_ids, settled=settled)
        end_crawl_pass(crawl_id, whole=finished)
        if cfg.deep_checks:
            _check_new_deep_guesses(crawl_id, cfg)
        if claim_pass_for_late_pages(crawl_id):  # that pass goes on with discovery once it saw everything
            enqueue(score_crawl, crawl_id, queue_name="score")
            return
        discovery_service.continue_discovery(crawl_id, cfg)
    except Exception as error:
        _record_error(crawl_id, "score_crawl", error)
        raise


def _check_new_deep_guesses(crawl_id: int, cfg: PairsSettings) -> None:
    """The crawl-wide pass guesses too (under the global credibility, which a site scored alone has
    not seen yet); score_site enqueues the checks of its own guesses, this those of the pass."""
    sites = list(deep_service.sites_with_unchecked(crawl_id))
    groups = groups_of(crawl_id, [site.pk for site in sites], cfg.group_max_sites)
    _check_deep_guesses_when_due(crawl_id, {site.pk: [member.pk for member in groups[site.pk]] for site in sites})


SITES_PER_CHECK_JOB = 20  # sites whose guesses one job checks in turns (their hosts' clocks overlap)


def _check_deep_guesses_when_due(crawl_id: int, groups: dict[int, list[int]]) -> None:
    """Enqueue the HEAD checks of each site's unchecked guesses once its group's frontier is empty, once
    for each guess (deep.claim_unchecked_sites)."""
    done = deep_service.frontier_done_sites(crawl_id, groups)
    _enqueue_checks(crawl_id, deep_service.claim_unchecked_sites(crawl_id, done))


def queue_guesses_due(crawl_id: int) -> None:
    """A crawl step's sweep: the guesses a check job set aside while their hosts were held go to new
    check jobs once the hosts' waits are over (deep.claim_guesses_due)."""
    _enqueue_checks(crawl_id, deep_service.claim_guesses_due(crawl_id))


def _enqueue_checks(crawl_id: int, claimed: list[int]) -> None:
    claimed = deep_service.slow_hosts_last(claimed)  # the Crawl-delay sites' clocks run side by side in few jobs
    for start in range(0, len(claimed), SITES_PER_CHECK_JOB):
        # Queue "score", once per guess (claim_unchecked): on "crawl" they took turns with the steps and
        # halved the crawl's rate; the crawl-first half of the workers never waits for them.
        enqueue(check_deep_pages, crawl_id, claimed[start:start + SITES_PER_CHECK_JOB], queue_name="score")


def check_deep_pages(crawl_id: int, site_ids) -> None:
    """HEAD-check the sites' unchecked deep-page guesses through the polite fetcher, in turns between
    their hosts (a site id, or a list of them)."""
    cfg = PairsSettings.current()
    site_ids = [site_ids] if isinstance(site_ids, int) else list(site_ids)
    try:
        checked = deep_service.check_deep_pages(crawl_id, site_ids, cfg.deep_checks_per_job)
    except Exception as error:
        _record_error(crawl_id, f"check_deep_pages({site_ids})", error)
        raise
    # More than one job's share, all claimed by the job that started the chain: the next share. A job that
    # could check nothing (its hosts busy) hands the rest back to the next claim (the sites' next scoring).
    # Sites set aside while the crawl runs are not left here: the crawl's steps queue them again.
    left = deep_service.sites_left_unchecked(crawl_id, site_ids)
    if left and checked:
        enqueue(check_deep_pages, crawl_id, left, queue_name="score")
        return
    if left:
        deep_service.release_unchecked(crawl_id, left)
    # The crawl's last check job, after it has finished: the crawl runs again for the pages found.
    deep_rounds.resume_for_found_pages(crawl_id, cfg)


def discover_sites(crawl_id: int) -> None:
    """Start incremental site discovery: rank external sites by ΣLinkout/ΣPR/ΣWPR, the top K
    become seeds the crawl fetches; PAIRS_DISCOVERY_ITERATIONS rankings in all."""
    from evaluation.services import discovery as discovery_service  # networkx: imported only when needed

    try:
        discovery_service.start_discovery(crawl_id)
    except Exception as error:
        _record_error(crawl_id, "discover_sites", error)
        raise
