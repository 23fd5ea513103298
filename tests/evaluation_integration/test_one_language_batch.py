"""One-language sites scored together give exactly what scoring them one by one gives."""
import pytest
from django.utils import timezone

from crawlweb.models import Page, SiteLanguage
from crawlweb.services.site_language import settled_sites
from evaluation.models import CandidatePair, DeepCheck, ScriptVariant, SiteCredibility, UrlPattern
from evaluation.pairing.guess_forms import explores_url
from evaluation.services import deep, one_language, scoring
from evaluation.services.config import PairsSettings, crawl_languages
from evaluation.pairing.records import check_languages
from tests.evaluation_integration.helpers import crawl_sites, pick_sites, site_name_of

pytestmark = pytest.mark.django_db(transaction=True)

ONE_LANGUAGE = [("mono-sr-cyrl", "dirs"), ("mono-sr-latn", "dirs"), ("mono-hr", "dirs"), ("mono-en", "dirs"),
                ("bilingual-en-de", "dirs"), ("directory", "dirs")]
FULL_PATH = [("bilingual-sr-en", "dirs"), ("bilingual-sr-en", "suffix-underscore"), ("sr-cyrl-latn", "dirs")]


def _pick(truth, wanted):
    """One site of each kind, whatever its layout when the one asked for is not in the web."""
    out = []
    for kind, layout in wanted:
        try:
            out += pick_sites(truth, [(kind, layout)])
        except StopIteration:
            out.append(next(s for s in truth["sites"] if s["kind"] == kind and s["robots"] == "none" and s not in out))
    return out


def _rows(crawl, site_ids):
    """What scoring leaves for the sites: guesses, C(w) rows, settled languages, and the full path's rows."""
    def values(model, *fields):
        return sorted(model.objects.filter(crawl=crawl, site_id__in=site_ids).values_list("site_id", *fields))
    return {
        "guesses": values(DeepCheck, "page_url", "guessed_url", "source_unit", "target_unit", "expected_language",
                          "pattern_credibility"),
        "credibility": values(SiteCredibility, "pages", "source_pages", "target_pages", "credibility", "domain",
                              "has_best_pattern"),
        "languages": values(SiteLanguage, "variety", "pages", "pages_corrected"),
        "patterns": values(UrlPattern, "source_unit", "target_unit"),
        "pairs": values(CandidatePair, "source_url", "target_url"),
        "variants": values(ScriptVariant, "latin_url", "cyrillic_url"),
    }


def test_one_language_sites_scored_together_store_what_scoring_each_alone_stores(sync_jobs):
    truth = sync_jobs.truth()
    mono, full = _pick(truth, ONE_LANGUAGE), _pick(truth, FULL_PATH)
    crawl = crawl_sites(mono + full, budget=200)
    ids = {site_name_of(s): pk for s in mono + full
           for pk in SiteCredibility.objects.filter(crawl=crawl, site__name=site_name_of(s)).values_list("site_id", flat=True)}
    mono_ids = sorted(ids[site_name_of(s)] for s in mono if site_name_of(s) in ids)
    full_ids = sorted(ids[site_name_of(s)] for s in full if site_name_of(s) in ids)
    assert len(mono_ids) == len(mono) and len(full_ids) == len(full), "every site was crawled and scored"

    languages = check_languages(crawl_languages(crawl))
    batch = one_language.prepare(crawl.pk, mono_ids + full_ids, PairsSettings.current(), languages)
    assert sorted(batch.handled) == mono_ids, "the one-language sites go together, the others the full path"
    assert sorted(batch.full_path) == full_ids

    DeepCheck.objects.filter(crawl=crawl).delete()
    for site_id in mono_ids + full_ids:
        scoring.score_site(crawl.pk, site_id)
    one_by_one = _rows(crawl, mono_ids + full_ids)
    assert one_by_one["guesses"], "the one-language sites have deep-page guesses to compare"

    DeepCheck.objects.filter(crawl=crawl).delete()
    summary = scoring.score_sites(crawl.pk, mono_ids + full_ids)
    assert _rows(crawl, mono_ids + full_ids) == one_by_one
    assert sorted(summary.groups) == sorted(mono_ids + full_ids), "each site's group is reported for its follow-ups"


def test_a_crawl_wide_pass_with_one_language_sites_stores_what_scoring_each_alone_stores(sync_jobs):
    truth = sync_jobs.truth()
    sites = _pick(truth, ONE_LANGUAGE[:3] + FULL_PATH[:2])
    crawl = crawl_sites(sites, budget=120)
    site_ids = set(SiteCredibility.objects.filter(crawl=crawl).values_list("site_id", flat=True))

    DeepCheck.objects.filter(crawl=crawl).delete()  # guesses stay once made: compare what each way makes
    scoring.score_crawl(crawl.pk)
    after_pass = _rows(crawl, site_ids)
    DeepCheck.objects.filter(crawl=crawl).delete()
    for site_id in sorted(site_ids):  # the globals are settled: each site alone sees what the pass saw
        scoring.score_site(crawl.pk, site_id)
    assert _rows(crawl, site_ids) == after_pass


def test_a_crawl_wide_pass_that_keeps_no_prepared_site_in_memory_nor_settles_again_stores_the_same(
        sync_jobs, monkeypatch):
    """A large crawl's pass cannot hold every site's pages between its two phases: the one-language
    batches and the bilingual sites beyond PASS_KEEP_PAGES are read again for guessing and pairing,
    and sites whose languages were settled with every page they have are not settled again; the
    rows are the same."""
    truth = sync_jobs.truth()
    crawl = crawl_sites(_pick(truth, ONE_LANGUAGE[:3] + FULL_PATH), budget=160)
    site_ids = set(SiteCredibility.objects.filter(crawl=crawl).values_list("site_id", flat=True))
    DeepCheck.objects.filter(crawl=crawl).delete()
    scoring.score_crawl(crawl.pk)
    kept = _rows(crawl, site_ids)
    assert kept["pairs"] and kept["guesses"], "the sites have pairs and one-language guesses to compare"
    settled = settled_sites(crawl.pk)
    assert site_ids <= settled, "a pass settles every site with the pages it has"

    CandidatePair.objects.filter(crawl=crawl).delete()
    DeepCheck.objects.filter(crawl=crawl).delete()
    monkeypatch.setattr(scoring, "PASS_KEEP_PAGES", 0)
    scoring.score_crawl(crawl.pk, settled=settled)
    assert _rows(crawl, site_ids) == kept

    grown = min(site_ids)
    Page.objects.filter(crawl=crawl, site_id=grown).order_by("-id").first().delete()
    assert grown not in settled_sites(crawl.pk), "a site whose pages changed is settled again"


def test_one_language_sites_store_no_guess_of_a_form_the_crawl_discredited_but_the_explored_ones(
        sync_jobs, settings, monkeypatch):
    """Only a request could confirm a one-language site's guess, and a discredited form's requests are
    skipped: such guesses are not stored at all, but for the one URL in EXPLORE_EVERY that is asked."""
    truth = sync_jobs.truth()
    mono = _pick(truth, ONE_LANGUAGE)
    crawl = crawl_sites(mono, budget=150)
    mono_ids = sorted(SiteCredibility.objects.filter(crawl=crawl).values_list("site_id", flat=True))
    DeepCheck.objects.filter(crawl=crawl).delete()
    scoring.score_sites(crawl.pk, mono_ids)
    made = list(DeepCheck.objects.filter(crawl=crawl).values_list("guessed_url", "source_unit", "target_unit"))
    assert len(made) >= 6, "the one-language sites are guessed counterparts"
    form = max({(s, t) for _url, s, t in made}, key=lambda f: sum(1 for _u, s, t in made if (s, t) == f))

    tried_url = next(url for url, s, t in made if (s, t) == form)
    of_form = {url for url, s, t in made if (s, t) == form and url != tried_url}
    # one in every so many explored: as many as makes some of the test web's few guesses explored, not all
    every = next(n for n in range(2, 50) if 0 < sum(explores_url(url, n) for url in of_form) < len(of_form))
    monkeypatch.setattr(deep, "FORM_RECORDS_TTL_S", 0.0)
    monkeypatch.setattr(deep, "EXPLORE_EVERY", every)
    settings.PAIRS_DEEP_FORM_MIN_TRIES, settings.PAIRS_DEEP_FORM_MIN_RATE = 1, 0.0
    tried = DeepCheck.objects.get(crawl=crawl, guessed_url=tried_url, source_unit=form[0], target_unit=form[1])
    DeepCheck.objects.filter(pk=tried.pk).update(exists=False, checked_at=tried.queued_at or timezone.now())
    DeepCheck.objects.filter(crawl=crawl).exclude(pk=tried.pk).delete()
    scoring.score_sites(crawl.pk, mono_ids)

    kept = set(DeepCheck.objects.filter(crawl=crawl).exclude(pk=tried.pk).values_list("guessed_url", "source_unit",
                                                                                       "target_unit"))
    assert {url for url, s, t in kept if (s, t) == form} == {url for url in of_form if explores_url(url, every)}
    assert {row for row in kept if row[1:] != form} == {row for row in made if row[1:] != form}, "other forms stay"
