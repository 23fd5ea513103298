"""Scoring as the crawl grows, from the crawl's follow-ups (crawlweb.services.followups).

- After each step: score_site for the sites that reached PAIRS_SITE_RESCORE_FROM_PAGES pages or grew
  PAIRS_SITE_RESCORE_GROWTH times since their last scoring, for those whose pages just told more of
  bilingualism (a language of the pair for the first time, a second page of one), for sites never scored whose first page is
  PAIRS_SITE_FIRST_DELAY_SECONDS old, and for sites whose last pages have waited
  PAIRS_SITE_QUIET_SECONDS (at most one pending per site: services/claims.py).  It mines
  only its own site and updates the global rows by that site's difference.
- Now and then: score_crawl, the crawl-wide pass.  score_site re-pairs only its own site, so
  sites scored early would keep judging with old global patterns (rescue_global, deep guesses,
  Def. 9).  The pass re-pairs every site under one global view.  It is due each time the crawl
  has grown PAIRS_RESCORE_GROWTH times since the last pass (from PAIRS_RESCORE_MIN_PAGES on), and
  once more when the crawl finishes; that last pass also starts the next discovery iteration, and
  the pages its deep-page guesses find make the crawl run again (services/deep_rounds.py).
- After each step too: the deep-page guesses a check job set aside while their hosts were held, once the
  hosts' waits are over (evaluation/services/deep.py).
- When the crawl finishes, after that last pass: every site gets its combined verdict (services/site_verdicts.py).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from datetime import timedelta

from crawlweb.jobs.queueing import enqueue
from crawlweb.models import Page
from evaluation.jobs import queue_guesses_due, score_crawl, score_sites
from evaluation.pairing.records import base_language
from evaluation.services.claims import (
    claim_crawl_pass,
    claim_quiet_sites,
    claim_sites,
    languages_seen,
    note_languages_shown,
    sites_with_new_evidence,
)
from evaluation.services.config import PairsSettings, crawl_languages
from evaluation.services.inputs import canonical_of
from evaluation.services.site_verdicts import combine_site_verdicts

SITES_PER_JOB = 60  # a job of many small sites; a big site's scoring is a job of its own length anyway


def after_step(crawl, step) -> None:
    cfg = PairsSettings.current()
    if cfg.deep_checks:
        queue_guesses_due(crawl.pk)  # deep-page guesses set aside while their hosts were held
    if not step.stored_page_ids:
        return
    pages = list(Page.objects.filter(pk__in=step.stored_page_ids).values_list("site_id", "language"))
    canonical = canonical_of(crawl.pk, {site_id for site_id, _ in pages}, cfg.group_max_sites)
    stored = Counter(canonical[site_id] for site_id, _ in pages)
    pair = crawl_languages(crawl)
    shown: dict[int, Counter] = defaultdict(Counter)
    for site_id, language in pages:
        if base_language(language) in pair:
            shown[canonical[site_id]][base_language(language)] += 1
    seen, pages_stored = languages_seen(crawl.pk, shown)
    telling = sites_with_new_evidence(shown, seen, pair,
                                      {site_id: n + stored[site_id] for site_id, n in pages_stored.items()})
    due = claim_sites(crawl.pk, {site_id: n for site_id, n in stored.items() if site_id in telling})
    due += claim_sites(crawl.pk, {site_id: n for site_id, n in stored.items() if site_id not in telling},
                       growth=cfg.site_rescore_growth, from_pages=cfg.site_rescore_from_pages)
    note_languages_shown(crawl.pk, shown, seen)  # after the claims: a first page's claim row exists now
    due += claim_quiet_sites(crawl.pk, timedelta(seconds=cfg.site_quiet_seconds),
                             timedelta(seconds=cfg.site_first_delay_seconds), growth=cfg.site_quiet_growth)
    due = sorted(set(due))
    for start in range(0, len(due), SITES_PER_JOB):
        enqueue(score_sites, crawl.pk, due[start:start + SITES_PER_JOB], queue_name="score")
    if claim_crawl_pass(crawl.pk, cfg):
        enqueue(score_crawl, crawl.pk, queue_name="score")  # behind the score_site jobs just queued


def after_finish(crawl) -> None:
    """The crawl finished by itself: one last crawl-wide pass."""
    if claim_crawl_pass(crawl.pk, PairsSettings.current(), finished=True):
        enqueue(score_crawl, crawl.pk, queue_name="score")


def verdicts_after_finish(crawl) -> None:
    """Every site of the finished crawl gets its combined verdict, queued behind the pairs' last pass
    (after_finish is registered before this), so the kept pairs are there to read."""
    enqueue(combine_site_verdicts, crawl.pk, queue_name="score")
