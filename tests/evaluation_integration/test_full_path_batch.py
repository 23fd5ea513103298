"""Sites that show both languages, scored together in one job, store what scoring each alone stores,
in statements that do not grow with every site of the job."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from evaluation.models import CandidatePair, DeepCheck, ScriptVariant, SiteCredibility, UrlPattern
from evaluation.services import scoring
from tests.evaluation_integration.helpers import crawl_sites

pytestmark = pytest.mark.django_db(transaction=True)


def _bilingual_sites(truth, count):
    return [s for s in truth["sites"] if s["kind"] == "bilingual-sr-en" and s["robots"] == "none"][:count]


def _rows(crawl, site_ids):
    def values(model, *fields):
        return sorted(model.objects.filter(crawl=crawl, site_id__in=site_ids).values_list("site_id", *fields))
    return {
        "patterns": values(UrlPattern, "source_unit", "target_unit", "frequency", "pages_matched", "local_credibility"),
        "global": sorted(UrlPattern.objects.filter(crawl=crawl, site__isnull=True).values_list(
            "source_unit", "target_unit", "sites", "frequency", "pages_matched")),
        "credibility": values(SiteCredibility, "pages", "source_pages", "target_pages", "credibility"),
        "pairs": values(CandidatePair, "source_url", "target_url", "method", "kept", "reason"),
        "guesses": values(DeepCheck, "page_url", "guessed_url", "exists"),
        "variants": values(ScriptVariant, "latin_url", "cyrillic_url"),
    }


def _statements(crawl_id, site_ids):
    with CaptureQueriesContext(connection) as queries:
        scoring.score_sites(crawl_id, site_ids)
    return len(queries.captured_queries)


def test_bilingual_sites_scored_together_store_what_scoring_each_alone_stores(sync_jobs):
    sites = _bilingual_sites(sync_jobs.truth(), 8)
    crawl = crawl_sites(sites, budget=240)
    site_ids = sorted(SiteCredibility.objects.filter(crawl=crawl, source_pages__gt=0, target_pages__gt=0)
                      .values_list("site_id", flat=True))
    assert len(site_ids) >= 6, "the crawl reached both languages of most of the sites"

    for site_id in site_ids:
        scoring.score_site(crawl.pk, site_id)
    one_by_one = _rows(crawl, site_ids)
    assert one_by_one["pairs"] and one_by_one["patterns"], "the sites have pairs and patterns to compare"
    CandidatePair.objects.filter(crawl=crawl).update(kept=False, reason="overwritten")  # must be written again

    summary = scoring.score_sites(crawl.pk, site_ids)
    assert _rows(crawl, site_ids) == one_by_one
    assert sorted(summary.groups) == site_ids and summary.sites == len(site_ids)

    # Scored again with nothing new: two sites or all of them cost about the same number of statements
    # (one by one, each site was some twenty statements of its own).
    few, many = _statements(crawl.pk, site_ids[:2]), _statements(crawl.pk, site_ids)
    assert many - few < 2 * (len(site_ids) - 2), (few, many)
    assert _rows(crawl, site_ids) == one_by_one, "scoring again with nothing new changes nothing"


def test_a_site_that_fails_is_named_and_the_others_of_its_chunk_are_still_scored(sync_jobs):
    from crawlweb.models import Site

    sites = _bilingual_sites(sync_jobs.truth(), 4)
    crawl = crawl_sites(sites, budget=120)
    site_ids = sorted(SiteCredibility.objects.filter(crawl=crawl, source_pages__gt=0, target_pages__gt=0)
                      .values_list("site_id", flat=True))
    assert len(site_ids) >= 3
    CandidatePair.objects.filter(crawl=crawl).delete()
    gone = site_ids[1]
    Site.objects.filter(pk=gone).delete()  # an operator removed it after its scoring was queued

    failures = []
    summary = scoring.score_sites(crawl.pk, site_ids, on_error=lambda site_id, error: failures.append((site_id, error)))
    assert [(site_id, str(error)) for site_id, error in failures] == [
        (gone, f"no Site with id {gone} (deleted since its scoring was queued)")]
    scored = [site_id for site_id in site_ids if site_id != gone]
    assert sorted(summary.groups) == scored
    assert set(CandidatePair.objects.filter(crawl=crawl).values_list("site_id", flat=True)) == set(scored)
