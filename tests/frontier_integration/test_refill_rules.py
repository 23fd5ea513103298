"""Refill offers only what the crawl's URL rules accept: a refused link must not take a place of a
stage's limit (a real hub listing 48 sites under rules that allow one of them: the refill offered 32
refused sites, added none, and the crawl ended without judging the allowed one)."""
import pytest
from django.utils import timezone

from crawlweb.models import Crawl, Host, Link, Page, Site
from frontier.strategies.refill import unjudged_sites

pytestmark = pytest.mark.django_db


def hub_listing(crawl: Crawl, sites: list[str]) -> Page:
    site, _ = Site.objects.get_or_create(name="hub.test")
    host, _ = Host.objects.get_or_create(site=site, name="hub.test")
    page = Page.objects.create(crawl=crawl, site=site, host=host, url="http://hub.test/", final_url="http://hub.test/",
                               status_code=200, md5="hub", fetched_at=timezone.now())
    Link.objects.bulk_create([Link(page=page, target_url=f"http://{name}/", url_as_linked=f"http://{name}/",
                                   anchor_text=name, out_of_site=True) for name in sites])
    return page


def test_unjudged_sites_offers_the_sites_the_rules_allow_however_late_the_hub_lists_them():
    crawl = Crawl.objects.create(name="rules", config={"url_rules": "allow HOST:^hub[.]test$\nallow HOST:^kasni[.]rs$"})
    hub_listing(crawl, [f"sajt{i}.rs" for i in range(40)] + ["kasni.rs"])
    offered = unjudged_sites(crawl, limit=32)
    assert [entry.candidate.normalized for entry in offered] == ["http://kasni.rs/"]


def test_without_rules_the_first_sites_listed_fill_the_limit():
    crawl = Crawl.objects.create(name="open")
    hub_listing(crawl, [f"sajt{i}.rs" for i in range(40)] + ["kasni.rs"])
    offered = unjudged_sites(crawl, limit=32)
    assert len(offered) == 32 and "http://kasni.rs/" not in {entry.candidate.normalized for entry in offered}


def test_a_refill_reads_its_links_pages_without_their_text_or_evidence():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    statements = []
    for n_sites in (5, 25):
        crawl = Crawl.objects.create(name=f"light {n_sites}")
        hub = hub_listing(crawl, [f"sajt{i}.rs" for i in range(n_sites)])
        Page.objects.filter(pk=hub.pk).update(text="Dugačak tekst stranice. " * 400, language_evidence={"lang": "sr"})
        with CaptureQueriesContext(connection) as queries:
            offered = unjudged_sites(crawl, limit=32)
        assert len(offered) == n_sites and all(entry.source_page.pk == hub.pk for entry in offered)
        reads = [q["sql"] for q in queries.captured_queries if "crawlweb_link" in q["sql"]]
        assert reads and not any('"crawlweb_page"."text"' in sql or "language_evidence" in sql for sql in reads)
        statements.append(len(queries.captured_queries))
    assert statements[0] == statements[1], "no page read again field by field: as many statements for 25 links as for 5"
