"""Scoring follows the crawl: new pages update their own site's patterns and nothing else."""
import pytest

from crawlweb.models import Crawl
from crawlweb.services.crawl_control import start_crawl
from evaluation.models import ScoreClaim, SiteCredibility, UrlPattern
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
