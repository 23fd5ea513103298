"""The crawl scores itself as it grows: score_site per site after each step, and now and then a
crawl-wide pass (score_crawl), debounced, plus one when the crawl finishes."""
import math
from datetime import timedelta

import pytest
from django.utils import timezone

from crawlweb.models import Crawl
from evaluation.models import CandidatePair, CrawlScoring, ScoreClaim, SiteCredibility, UrlPattern
from evaluation.services import scoring
from evaluation.services.claims import (claim_crawl_pass, claim_pass_for_late_pages, crawl_pass_due,
                                         end_crawl_pass, start_crawl_pass)
from evaluation.services.config import PairsSettings
from tests.conftest import set_job_mode
from tests.evaluation_integration.helpers import crawl_sites, pick_sites

KINDS = [("bilingual-sr-en", "dirs"), ("bilingual-sr-en", "suffix-dot"), ("bilingual-sr-en", "query")]


def _results(crawl_id):
    """What a user reads: pairs with their verdicts and scores, global patterns, site credibility."""
    pairs = sorted(CandidatePair.objects.filter(crawl_id=crawl_id).values_list(
        "source_url", "target_url", "method", "kept", "reason", "similarity"))
    patterns = sorted((t, t2, frequency, round(credibility, 9)) for t, t2, frequency, credibility in
                      UrlPattern.objects.global_rows(crawl_id).values_list(
                          "source_unit", "target_unit", "frequency", "global_credibility"))
    sites = sorted(SiteCredibility.objects.filter(crawl_id=crawl_id).values_list("site__name", "pages", "credibility"))
    return pairs, patterns, sites


def test_a_pass_is_due_from_min_pages_on_each_time_the_crawl_doubles():
    assert not crawl_pass_due(99, 0, growth=2, min_pages=100)
    assert crawl_pass_due(100, 0, growth=2, min_pages=100)
    assert not crawl_pass_due(199, 100, growth=2, min_pages=100)
    assert crawl_pass_due(200, 100, growth=2, min_pages=100)
    assert crawl_pass_due(300, 100, growth=3, min_pages=100) and not crawl_pass_due(299, 100, growth=3, min_pages=100)
    assert not crawl_pass_due(10_000, 0, growth=0, min_pages=1), "growth 0: only when the crawl finishes"
    with pytest.raises(ValueError, match="above 1"):
        crawl_pass_due(10, 5, growth=1.0, min_pages=1)


@pytest.mark.django_db
def test_a_pending_pass_is_claimed_once_and_claimed_again_only_after_growth():
    crawl = Crawl.objects.create(name="claims", page_budget=10)
    cfg = PairsSettings(rescore_min_pages=10, rescore_growth=2.0)
    Crawl.objects.filter(pk=crawl.pk).update(pages_fetched=12)
    assert claim_crawl_pass(crawl.pk, cfg) is True
    assert claim_crawl_pass(crawl.pk, cfg) is False, "one pending pass at a time"
    start_crawl_pass(crawl.pk)  # the job starts: the claim is released, 12 pages seen
    assert claim_crawl_pass(crawl.pk, cfg) is False, "not grown since"
    Crawl.objects.filter(pk=crawl.pk).update(pages_fetched=24)
    assert claim_crawl_pass(crawl.pk, cfg) is True
    start_crawl_pass(crawl.pk)  # a pass of the running crawl: it leaves settled one-language sites out
    end_crawl_pass(crawl.pk)
    assert claim_crawl_pass(crawl.pk, cfg, finished=True) is True, "it saw every page but not every site"
    start_crawl_pass(crawl.pk)
    end_crawl_pass(crawl.pk, whole=True)  # the pass after the crawl finished: every site
    assert claim_crawl_pass(crawl.pk, cfg, finished=True) is False, "the last pass saw every page and site"
    Crawl.objects.filter(pk=crawl.pk).update(pages_fetched=25)
    assert claim_crawl_pass(crawl.pk, cfg, finished=True) is True, "the end of the crawl needs no growth"


@pytest.mark.django_db
def test_a_finished_crawl_with_pages_no_pass_saw_gets_one_more_pass_claimed_once():
    """The finishing step's claim can lose to a pass that starts at the same moment and saw one
    page less; that pass, as it ends, claims one more."""
    crawl = Crawl.objects.create(name="late pages", page_budget=30)
    Crawl.objects.filter(pk=crawl.pk).update(pages_fetched=24)
    start_crawl_pass(crawl.pk)  # the pass starts at 24 pages
    Crawl.objects.filter(pk=crawl.pk).update(pages_fetched=25)
    assert claim_pass_for_late_pages(crawl.pk) is False, "the crawl is still running: growth decides"
    Crawl.objects.filter(pk=crawl.pk).update(state=Crawl.State.FINISHED)
    assert claim_pass_for_late_pages(crawl.pk) is True
    assert claim_pass_for_late_pages(crawl.pk) is False, "one pending pass at a time"
    start_crawl_pass(crawl.pk)
    row = CrawlScoring.objects.get(crawl=crawl)
    assert (row.pending, row.pages_at_last_pass) == (False, 25)
    end_crawl_pass(crawl.pk, whole=True)
    assert claim_pass_for_late_pages(crawl.pk) is False, "that pass saw every page"


@pytest.mark.django_db
def test_a_pass_that_started_as_the_crawl_finished_is_followed_by_a_whole_one():
    """The pass due by growth at the page that spent the budget saw every page, but it started while
    the crawl was running and left out the one-language sites scored before (pass_site_ids): the
    finishing step's claim lost to it (pending), so that pass, as it ends, claims the whole one."""
    crawl = Crawl.objects.create(name="budget spent at a pass", page_budget=40)
    Crawl.objects.filter(pk=crawl.pk).update(pages_fetched=40)
    assert claim_crawl_pass(crawl.pk, PairsSettings(rescore_min_pages=10, rescore_growth=2.0)) is True
    Crawl.objects.filter(pk=crawl.pk).update(state=Crawl.State.FINISHED)
    assert claim_crawl_pass(crawl.pk, PairsSettings(), finished=True) is False, "that pass is pending"
    start_crawl_pass(crawl.pk)  # it read the crawl as running just before the finish: not whole
    end_crawl_pass(crawl.pk, whole=False)
    assert claim_pass_for_late_pages(crawl.pk) is True, "no pass after the crawl scored every site"
    assert claim_pass_for_late_pages(crawl.pk) is False, "one pending pass at a time"
    start_crawl_pass(crawl.pk)
    end_crawl_pass(crawl.pk, whole=True)
    assert claim_pass_for_late_pages(crawl.pk) is False


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("mode", [pytest.param("rq", marks=pytest.mark.services), "thread", "sync"])
def test_the_crawl_scores_itself_as_it_grows_and_once_more_when_it_finishes(
        mode, settings, empty_queues, through_test_web, crawl_settings, run_jobs):
    set_job_mode(settings, mode)
    settings.PAIRS_RESCORE_MIN_PAGES, settings.PAIRS_RESCORE_GROWTH = 10, 2.0
    sites = pick_sites(through_test_web.truth(), KINDS)
    crawl = crawl_sites(sites, budget=80)
    run_jobs()
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED and crawl.pages_fetched > 40
    row = CrawlScoring.objects.get(crawl=crawl)
    assert not row.pending and row.pages_at_last_pass == crawl.pages_fetched, "the last pass saw the whole crawl"
    assert row.last_pass_whole, "and it started once the crawl had finished: every site"
    # at 10, 20, 40 … pages and at the end: a handful of passes, not one per step or per page (a
    # worker busy with crawl steps runs a pass claimed mid-crawl late, and that one pass is enough)
    most = math.floor(math.log2(crawl.pages_fetched / 10)) + 2
    assert (2 if mode == "sync" else 1) <= row.passes <= most, (row.passes, most)
    before = _results(crawl.pk)
    assert before[0], "pairs were found"
    scoring.score_crawl(crawl.pk)
    assert _results(crawl.pk) == before, "nothing was left stale: scoring again changes nothing"


@pytest.mark.django_db(transaction=True)
def test_with_growth_zero_the_whole_crawl_is_scored_only_when_it_finishes(
        settings, empty_queues, through_test_web, crawl_settings):
    set_job_mode(settings, "sync")
    settings.PAIRS_RESCORE_GROWTH = 0
    crawl = crawl_sites(pick_sites(through_test_web.truth(), KINDS[:1]), budget=40)
    row = CrawlScoring.objects.get(crawl=crawl)
    assert row.passes == 1 and row.pages_at_last_pass == crawl.pages_fetched


@pytest.mark.django_db(transaction=True)
def test_a_pass_during_the_crawl_scores_only_the_sites_with_pages_no_scoring_saw(sync_jobs):
    """Incremental: a site scored since its last page keeps its stored patterns (which the global rebuild
    reads) and pairs until it grows, goes quiet with pages unseen, or the pass after the crawl."""
    truth = sync_jobs.truth()
    one_language = next(s for s in truth["sites"] if s["kind"] == "mono-sr-latn" and s["robots"] == "none")
    crawl = crawl_sites(pick_sites(truth, KINDS) + [one_language], budget=60)
    cfg = PairsSettings.current()
    every = scoring.pass_site_ids(crawl.pk, cfg, every=True)
    assert len(every) == 4, "each site of the crawl, as its canonical site"
    assert scoring.pass_site_ids(crawl.pk, cfg, every=False) == set(), "every site was scored since its last page"

    bilingual = (SiteCredibility.objects.filter(crawl=crawl, site_id__in=every, source_pages__gt=0, target_pages__gt=0)
                 .values_list("site_id", flat=True).first())
    assert bilingual is not None
    ScoreClaim.objects.filter(crawl=crawl, site_id=bilingual).update(behind=True)  # a page stored since
    assert scoring.pass_site_ids(crawl.pk, cfg, every=False) == {bilingual}
    never = sorted(every - {bilingual})[0]
    SiteCredibility.objects.filter(crawl=crawl, site_id=never).delete()  # as a site not scored yet
    assert scoring.pass_site_ids(crawl.pk, cfg, every=False) == {bilingual, never}
    assert scoring.pass_site_ids(crawl.pk, cfg, every=True) == every, "the pass after the crawl: every site"

    # a site whose own score_sites job is queued is left to that job, unless the job is long lost
    ScoreClaim.objects.filter(crawl=crawl, site_id=bilingual).update(pending=True, claimed_at=timezone.now())
    assert scoring.pass_site_ids(crawl.pk, cfg, every=False) == {never}
    assert bilingual in scoring.pass_site_ids(crawl.pk, cfg, every=True)
    ScoreClaim.objects.filter(crawl=crawl, site_id=bilingual).update(claimed_at=timezone.now() - timedelta(hours=1))
    assert scoring.pass_site_ids(crawl.pk, cfg, every=False) == {bilingual, never}
