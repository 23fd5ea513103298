"""Debounce of score_site: a batch of sites is claimed in two statements, each site by one caller only."""
from datetime import timedelta

import pytest
from django.utils import timezone

from crawlweb.models import Crawl, Page, Site
from evaluation.models import ScoreClaim
from evaluation.services.claims import STALE_AFTER, claim_sites, release_claim
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
