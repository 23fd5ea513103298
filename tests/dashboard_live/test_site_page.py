"""A site's page in a crawl, read after the real short crawl (conftest.watched_crawl): reached from
the bilingual-sites list, its numbers equal the rows, its pages lead to the Targets that fetched them."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from crawlweb.models import Crawl, Page, Site
from evaluation.models import CandidatePair, SiteCredibility, UrlPattern
from frontier.models import SiteVerdict, Target
from tests.dashboard_live.helpers import shown_counts

pytestmark = pytest.mark.django_db


def _site_links(client, crawl) -> dict[str, str]:
    soup = BeautifulSoup(client.get(f"/crawls/{crawl.pk}/discovery/").content, "html.parser")
    return {row.td.get_text(strip=True): row.td.a["href"] for row in soup.select("#bilingual-sites tbody tr")}


def test_each_bilingual_site_links_to_its_page_with_verdict_evidence_patterns_and_pairs(watched_crawl, staff_client):
    links = _site_links(staff_client, watched_crawl)
    assert links and len(links) == SiteVerdict.objects.filter(crawl=watched_crawl, bilingual=True).count()
    for name, href in links.items():
        site = Site.objects.get(name=name)
        response = staff_client.get(href)
        assert response.status_code == 200
        soup = BeautifulSoup(response.content, "html.parser")
        assert soup.h1.get_text().startswith(name)
        verdict = SiteVerdict.objects.get(crawl=watched_crawl, site=site)
        assert soup.select_one("#verdict strong").get_text() == "Bilingual"
        evidence = soup.select_one("#verdict dl.evidence").get_text(" ", strip=True)
        assert "Languages seen" in evidence and verdict.evidence["page"] in evidence
        assert "Decided by" in evidence, "the crawl-end combination is shown too"
        shown = shown_counts(response.content)
        pages = Page.objects.filter(crawl=watched_crawl, site=site)
        assert shown["site-pages"][0] == pages.count()
        for language, script in set(pages.values_list("language", "script")):
            assert shown[f"site-language-{language or 'none'}-{script or 'none'}"][0] == \
                pages.filter(language=language, script=script).count()
        pairs = CandidatePair.objects.filter(crawl=watched_crawl, site=site)
        assert shown["site-pairs-kept"][0] == pairs.filter(kept=True).count()
        assert shown["site-pairs-removed"][0] == pairs.filter(kept=False).count()
        assert len(soup.select("#site-pairs tbody tr.kept")) == pairs.filter(kept=True).count()
        patterns = UrlPattern.objects.filter(crawl=watched_crawl, site=site)
        assert len(soup.select("#site-patterns tbody tr")) == max(1, patterns.count())
        credibility = SiteCredibility.objects.filter(crawl=watched_crawl, site=site).first()
        if credibility is not None:
            assert soup.select_one("#site-patterns .credibility").get_text() == f"{credibility.credibility:.3f}"
        for count_name, (number, link) in shown.items():
            assert staff_client.get(link).context["cl"].result_count == number, (name, count_name)


def test_a_sites_pages_lead_to_the_target_that_says_why_it_was_fetched(watched_crawl, staff_client):
    site_id = SiteVerdict.objects.filter(crawl=watched_crawl, bilingual=True).values_list("site_id", flat=True).first()
    soup = BeautifulSoup(staff_client.get(f"/crawls/{watched_crawl.pk}/sites/{site_id}/").content, "html.parser")
    rows = soup.select("#site-page-list tbody tr")
    assert rows
    for row in rows:
        page_url, target_link = row.td.get_text(strip=True), row.select("td")[-1].a
        target = Target.objects.get(pk=int(target_link["href"].rstrip("/").split("/")[-1]))
        assert target.page.final_url == page_url and target.crawl_id == watched_crawl.pk
    response = staff_client.get(rows[0].select("td")[-1].a["href"])
    assert "Why is this Target here?" in response.content.decode()


def test_a_site_the_crawl_never_saw_is_not_found(watched_crawl, staff_client):
    stranger = Site.objects.create(name="nowhere.example")
    assert staff_client.get(f"/crawls/{watched_crawl.pk}/sites/{stranger.pk}/").status_code == 404
    assert staff_client.get(f"/crawls/{watched_crawl.pk}/sites/999999/").status_code == 404
