"""Debounce of score_site: a batch of sites is claimed in two statements, each site by one caller only."""
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone

from crawlweb.models import Crawl, Page, Site
from evaluation.followup import after_step
from evaluation.models import ScoreClaim
from evaluation.services.claims import STALE_AFTER, claim_quiet_sites, claim_sites, mark_sites_scored, release_claim
from evaluation.services.inputs import canonical_site_ids, site_group

pytestmark = pytest.mark.django_db


def make_sites(*names):
    from crawlweb.crawler.urls import registrable_domain

    return [Site.objects.create(name=name, registrable_domain=registrable_domain(name)) for name in names]


def test_each_site_is_won_once_until_its_job_releases_it():
    crawl = Crawl.objects.create(name="claims")
    a, b, c = make_sites("a.rs", "b.rs", "c.rs")
    assert claim_sites(crawl.pk, [a.pk, b.pk]) == sorted([a.pk, b.pk])
    assert claim_sites(crawl.pk, [a.pk, b.pk, c.pk]) == [c.pk], "pending claims are not won again"
    release_claim(crawl.pk, a.pk)
    assert claim_sites(crawl.pk, [a.pk, b.pk, c.pk]) == [a.pk]
    assert ScoreClaim.objects.filter(crawl=crawl).count() == 3


def test_a_claim_left_pending_by_a_dead_job_is_taken_again_after_a_while():
    crawl = Crawl.objects.create(name="stale")
    [site] = make_sites("d.rs")
    assert claim_sites(crawl.pk, [site.pk]) == [site.pk]
    ScoreClaim.objects.filter(crawl=crawl).update(claimed_at=timezone.now() - STALE_AFTER - timedelta(seconds=1))
    assert claim_sites(crawl.pk, [site.pk]) == [site.pk]


def test_canonical_sites_in_bulk_agree_with_each_sites_group():
    crawl = Crawl.objects.create(name="groups")
    sites = make_sites("radio.rs", "en.radio.rs", "www2.radio.rs", "solo.rs", "a.example.co.rs", "b.example.co.rs")
    for site in sites:
        host = site.hosts.create(name=site.name)
        Page.objects.create(crawl=crawl, site=site, host=host, url=f"http://{site.name}/", final_url=f"http://{site.name}/",
                            status_code=200, md5=site.name, fetched_at=timezone.now())
    ids = [site.pk for site in sites]
    expected = {site_group(crawl.pk, site, 10)[0].pk for site in sites}
    assert canonical_site_ids(crawl.pk, ids, 10) == expected
    radio, example = sites[0], Site.objects.get(name="a.example.co.rs")
    assert expected == {radio.pk, sites[3].pk, example.pk}
    # A domain with more Sites than group_max_sites is not grouped: each Site stands alone.
    radio_sites, solo = sites[:3], sites[3]
    assert canonical_site_ids(crawl.pk, ids, 2) == {s.pk for s in radio_sites} | {solo.pk, example.pk}


def test_a_site_is_scored_again_only_after_growing_by_the_factor():
    """Growth 1.5: scored at 1, 2, 3, 5 pages … — not after every page (a growing site re-read whole
    after each step cost the crawl quadratic time)."""
    crawl = Crawl.objects.create(name="growth")
    [site] = make_sites("g.rs")
    scored_at = []
    for page in range(1, 9):
        if claim_sites(crawl.pk, [site.pk], growth=1.5) == [site.pk]:
            scored_at.append(page)
            release_claim(crawl.pk, site.pk)  # the job starts: it sees every page stored so far
    assert scored_at == [1, 2, 3, 5, 8]
    claim = ScoreClaim.objects.get(crawl=crawl, site=site)
    assert (claim.pages_stored, claim.pages_at_last_score, claim.behind) == (8, 8, False)


def test_a_small_site_is_scored_by_growth_only_from_the_threshold():
    """Growth 2 from 8 pages (the defaults): at 8, 16 pages; the pages before and between wait for the site
    to be quiet (claim_quiet_sites), so a site of five pages is scored once, not at 1, 2, 3 and 5."""
    crawl = Crawl.objects.create(name="from pages")
    [site] = make_sites("f.rs")
    scored_at = []
    for page in range(1, 21):
        if claim_sites(crawl.pk, [site.pk], growth=2, from_pages=8) == [site.pk]:
            scored_at.append(page)
            release_claim(crawl.pk, site.pk)
    assert scored_at == [8, 16]
    claim = ScoreClaim.objects.get(crawl=crawl, site=site)
    assert (claim.pages_stored, claim.pages_at_last_score, claim.behind) == (20, 16, True)


def test_a_site_never_scored_is_scored_a_short_delay_after_its_first_page():
    """A new site's few pages come in a burst: it is scored ``first_delay`` (20 s by default) after its
    first page, however its pages go on arriving, with those stored by then; a site scored before waits
    until its last page is ``quiet`` (60 s) old."""
    crawl = Crawl.objects.create(name="first delay")
    new, scored = make_sites("n1.rs", "n2.rs")
    claim_sites(crawl.pk, {scored.pk: 8}, growth=2, from_pages=8)
    release_claim(crawl.pk, scored.pk)
    assert claim_sites(crawl.pk, {new.pk: 3, scored.pk: 1}, growth=2, from_pages=8) == []
    quiet, first_delay = timedelta(seconds=60), timedelta(seconds=20)
    assert claim_quiet_sites(crawl.pk, quiet, first_delay) == [], "the first page is just stored"
    ScoreClaim.objects.filter(crawl=crawl).update(first_stored_at=timezone.now() - first_delay - timedelta(seconds=1))
    assert claim_sites(crawl.pk, {new.pk: 1}, growth=2, from_pages=8) == [], "a fourth page: still short of 8"
    assert claim_quiet_sites(crawl.pk, quiet, first_delay) == [new.pk], "its pages still come: scored all the same"
    ScoreClaim.objects.filter(crawl=crawl).update(last_stored_at=timezone.now() - quiet - timedelta(seconds=1))
    assert claim_quiet_sites(crawl.pk, quiet, first_delay) == [scored.pk], "the new site is pending already"


def test_pages_counted_in_bulk_per_site():
    crawl = Crawl.objects.create(name="bulk")
    a, b = make_sites("ba.rs", "bb.rs")
    assert claim_sites(crawl.pk, {a.pk: 4, b.pk: 1}, growth=1.5) == sorted([a.pk, b.pk])
    release_claim(crawl.pk, a.pk)
    release_claim(crawl.pk, b.pk)
    assert claim_sites(crawl.pk, {a.pk: 1, b.pk: 1}, growth=1.5) == [b.pk], "a: 5 < 1.5 × 4; b: 2 ≥ 1.5 × 1"
    assert ScoreClaim.objects.get(crawl=crawl, site=a).pages_stored == 5


def test_a_site_that_stopped_short_of_the_factor_is_scored_once_it_has_been_quiet():
    crawl = Crawl.objects.create(name="quiet")
    grown, idle = make_sites("q1.rs", "q2.rs")
    for site in (grown, idle):
        claim_sites(crawl.pk, {site.pk: 10})
        release_claim(crawl.pk, site.pk)
    assert claim_sites(crawl.pk, {grown.pk: 2}, growth=1.5) == [], "12 pages: short of 15"
    quiet = timedelta(seconds=60)
    assert claim_quiet_sites(crawl.pk, quiet) == [], "its last page is not a minute old"
    ScoreClaim.objects.filter(crawl=crawl, site=grown).update(last_stored_at=timezone.now() - quiet - timedelta(seconds=1))
    assert claim_quiet_sites(crawl.pk, quiet) == [grown.pk], "the idle site has nothing unscored"
    assert claim_quiet_sites(crawl.pk, quiet) == [], "claimed once"
    release_claim(crawl.pk, grown.pk)
    ScoreClaim.objects.filter(crawl=crawl).update(last_stored_at=timezone.now() - quiet * 2)
    assert claim_quiet_sites(crawl.pk, quiet) == [], "scored: no longer behind"


def test_a_quiet_site_scored_before_waits_until_it_has_grown_by_a_quarter():
    """Breadth-first over many hosts, a large site gets a page a lease round, each after a quiet spell:
    scored at every such page, its scorings read its pages quadratically. A quiet site scored before is
    scored once its pages are ``growth`` times those of its last scoring; a small one still at each page."""
    crawl = Crawl.objects.create(name="quiet growth")
    large, small = make_sites("qg1.rs", "qg2.rs")
    claim_sites(crawl.pk, {large.pk: 40, small.pk: 2})
    for site in (large, small):
        release_claim(crawl.pk, site.pk)
    quiet = timedelta(seconds=60)

    def quiet_now():
        ScoreClaim.objects.filter(crawl=crawl).update(last_stored_at=timezone.now() - quiet - timedelta(seconds=1))

    assert claim_sites(crawl.pk, {large.pk: 1, small.pk: 1}, growth=2, from_pages=8) == []
    quiet_now()
    assert claim_quiet_sites(crawl.pk, quiet, growth=1.25) == [small.pk], "41 of 40 pages: not yet; 3 of 2: scored"
    release_claim(crawl.pk, small.pk)
    assert claim_sites(crawl.pk, {large.pk: 9}, growth=2, from_pages=8) == []
    quiet_now()
    assert claim_quiet_sites(crawl.pk, quiet, growth=1.25) == [large.pk], "50 of 40 pages: a quarter more"
    release_claim(crawl.pk, large.pk)
    claim_sites(crawl.pk, {large.pk: 1}, growth=2, from_pages=8)
    quiet_now()
    assert claim_quiet_sites(crawl.pk, quiet) == [large.pk], "growth 1 (the setting's floor): any unseen page"


def test_a_crawl_wide_pass_brings_every_site_up_to_date():
    crawl = Crawl.objects.create(name="pass")
    behind, current = make_sites("p1.rs", "p2.rs")
    claim_sites(crawl.pk, {behind.pk: 3, current.pk: 3})
    release_claim(crawl.pk, current.pk)
    release_claim(crawl.pk, behind.pk)
    claim_sites(crawl.pk, {behind.pk: 1}, growth=100)
    before = ScoreClaim.objects.get(crawl=crawl, site=current)
    mark_sites_scored(crawl.pk)
    after = {c.site_id: c for c in ScoreClaim.objects.filter(crawl=crawl)}
    assert (after[behind.pk].behind, after[behind.pk].pages_at_last_score) == (False, 4)
    assert after[current.pk].claimed_at == before.claimed_at


def test_a_sites_guesses_are_queued_for_checking_once_however_often_it_is_scored():
    """A growing site is scored again and again: its unchecked guesses get one check job, not one each time."""
    from evaluation.models import DeepCheck
    from evaluation.services.deep import claim_unchecked, release_unchecked

    crawl = Crawl.objects.create(name="deep")
    [site] = make_sites("deep.rs")
    assert not claim_unchecked(crawl.pk, site.pk), "nothing to check"
    DeepCheck.objects.create(crawl=crawl, site=site, page_url="http://deep.rs/a", guessed_url="http://deep.rs/en/a",
                             expected_language="en")
    assert claim_unchecked(crawl.pk, site.pk)
    assert not claim_unchecked(crawl.pk, site.pk), "queued already"
    DeepCheck.objects.create(crawl=crawl, site=site, page_url="http://deep.rs/b", guessed_url="http://deep.rs/en/b",
                             expected_language="en")
    assert claim_unchecked(crawl.pk, site.pk), "a new guess"
    release_unchecked(crawl.pk, site.pk)  # a job that could check nothing hands them back
    assert claim_unchecked(crawl.pk, site.pk)


def test_a_site_whose_pages_tell_more_of_bilingualism_is_scored_at_once():
    """Its second language is what makes a site bilingual, and two pages of each are what its pages
    need to say so: a site scored at its first English page is claimed again as soon as a Serbian page
    is stored, and again at its second Serbian page, though it is far from its next growth factor (it
    used to wait a quiet minute or a doubling, the slowest verdicts of a crawl). A third language is no
    reason, nor a second English page before any Serbian one, nor a third page of a language, nor a
    second page of a language on a site of fewer than four pages (one page of each says bilingual there)."""
    crawl = Crawl.objects.create(name="new language", source_language="sr", target_language="en")
    site, small = make_sites("n.rs", "m.rs")
    stored = []

    def step(language: str, on=site) -> bool:
        page = Page.objects.create(crawl=crawl, site=on, host=on.hosts.get_or_create(name=on.name)[0],
                                   url=f"http://{on.name}/{len(stored)}", final_url=f"http://{on.name}/{len(stored)}",
                                   status_code=200, md5=str(len(stored)), fetched_at=timezone.now(), language=language)
        stored.append(page)
        after_step(crawl, SimpleNamespace(stored_page_ids=[page.pk]))
        claim = ScoreClaim.objects.get(crawl=crawl, site=on)
        if claim.pending:
            release_claim(crawl.pk, on.pk)  # the job starts
        return claim.pending

    assert [step(language) for language in ("en", "en", "hr", "sr-Latn", "sr", "en", "sr")] == [
        True, False, False, True, True, False, False]
    assert ScoreClaim.objects.get(crawl=crawl, site=site).languages_seen == "en,en,sr,sr"
    assert [step(language, on=small) for language in ("sr", "en", "en")] == [True, True, False]
