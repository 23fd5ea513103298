"""Scoring follows the crawl: new pages update their own site's patterns and nothing else."""
import pytest

from crawlweb.models import Crawl
from crawlweb.jobs.crawl_control import start_crawl
from evaluation.models import DeepCheck, ScoreClaim, SiteCredibility, UrlPattern
from tests.evaluation_integration.helpers import (
    crawl_sites,
    home_urls,
    pick_sites,
    site_name_of,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _rows(crawl, name):
    return {(r.source_unit, r.target_unit): (r.pk, r.frequency, r.updated_at)
            for r in UrlPattern.objects.filter(crawl=crawl, site__name=name)}


def _crawl_more(crawl, pages, extra_urls=()):
    crawl.refresh_from_db()
    Crawl.objects.filter(pk=crawl.pk).update(page_budget=crawl.pages_fetched + pages)
    start_crawl(crawl, extra_urls=list(extra_urls))


def test_new_pages_update_their_sites_patterns_and_leave_other_sites_alone(sync_jobs):
    done, growing = pick_sites(sync_jobs.truth(), [("bilingual-sr-en", "dirs"), ("bilingual-sr-en", "suffix-underscore")])
    crawl = crawl_sites([done, growing], budget=40, start_from=[done])  # the first site, whole
    done_rows = _rows(crawl, site_name_of(done))
    assert done_rows and not _rows(crawl, site_name_of(growing))
    _crawl_more(crawl, 10, home_urls([growing]))  # the second site, in part
    partly = _rows(crawl, site_name_of(growing))
    _crawl_more(crawl, 30)  # the rest of it
    whole = _rows(crawl, site_name_of(growing))
    best = ("", "en")  # x.html ↔ x_en.html
    assert whole[best][1] > partly.get(best, (None, 0))[1], "the site's pattern counts its new pairs"
    assert whole[best][1] == len(growing["parallel_pairs"]) - 1, "all but / ↔ /index_en.html"
    assert _rows(crawl, site_name_of(done)) == done_rows, "the other site's rows were not rewritten"
    assert SiteCredibility.objects.get(crawl=crawl, site__name=site_name_of(growing)).best_pattern == "⟨ε, en⟩"
    assert not ScoreClaim.objects.filter(crawl=crawl, pending=True).exists(), "every queued scoring ran"


def _global_sums(crawl):
    return {(r.source_unit, r.target_unit): (round(r.global_credibility_unnormalized, 6), r.pages_matched,
                                             r.frequency, r.sites, round(r.global_credibility, 9))
            for r in UrlPattern.objects.global_rows(crawl.pk)}


def _writes_to(queries, table):
    return [q["sql"] for q in queries if table in q["sql"] and q["sql"].split()[0] in ("INSERT", "UPDATE", "DELETE")]


def test_sites_scored_one_by_one_leave_the_global_rows_def_4_would_compute_and_no_row_is_rewritten_unchanged(
        sync_jobs):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from evaluation.services import global_patterns, scoring

    first, second = pick_sites(sync_jobs.truth(), [("bilingual-sr-en", "dirs"), ("bilingual-sr-en", "suffix-underscore")])
    crawl = crawl_sites([first, second], budget=60, start_from=[first])
    _crawl_more(crawl, 10, home_urls([second]))  # the second site scored part-grown, then grown
    _crawl_more(crawl, 40)
    incremental = _global_sums(crawl)
    assert len(incremental) >= 2, "a pattern of each site"
    global_patterns.rebuild(crawl.pk)
    assert _global_sums(crawl) == incremental, "the sums moved site by site are Def. 4's sums"
    site = SiteCredibility.objects.get(crawl=crawl, site__name=site_name_of(first)).site
    with CaptureQueriesContext(connection) as queries:
        scoring.score_site(crawl.pk, site.pk)  # nothing new on the site
    assert _writes_to(queries, "evaluation_urlpattern") == []
    assert _writes_to(queries, "evaluation_sitecredibility") == []
    assert DeepCheck.objects.filter(crawl=crawl, site=site).exists(), "the site's guesses are stored"
    assert _writes_to(queries, "evaluation_deepcheck") == [], "its guesses, stored before, are not inserted again"
    with CaptureQueriesContext(connection) as queries:
        scoring.score_sites(crawl.pk, [site.pk])  # as a job scores it: its batch tells it shows both languages
    link_reads = [q["sql"] for q in queries if q["sql"].startswith("SELECT") and '"crawlweb_link"' in q["sql"]]
    assert len(link_reads) == 1, "a bilingual site's links are read once, by the full path"


def test_a_breadth_first_crawl_stores_a_bilingual_sites_verdict_while_it_runs(sync_jobs):
    """No detector runs in a breadth-first crawl: its sites' verdicts come with their scoring, so the
    harvest curve shows the site found before the crawl's end, not at it."""
    from frontier.models import SiteVerdict

    site, other = pick_sites(sync_jobs.truth(), [("bilingual-sr-en", "dirs"), ("bilingual-sr-en", "suffix-underscore")])
    crawl = crawl_sites([site, other], budget=60)
    assert crawl.strategy == "bfs" and crawl.pages_fetched > 20
    verdict = SiteVerdict.objects.get(crawl=crawl, site__name=site_name_of(site))
    assert verdict.bilingual and "pages" in verdict.evidence["combined"]["decided_by"]
    assert verdict.pages_fetched_at_decision < crawl.pages_fetched, "decided while the crawl ran"
