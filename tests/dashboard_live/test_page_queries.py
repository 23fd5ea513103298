"""What the dashboard's pages cost the database: the crawl list, a crawl's page and its polled
partials take a fixed number of queries, the same for the real crawl of this package (pages, Targets,
verdicts, pairs) and for an empty one, and the crawl list the same for one crawl or many. A query
per crawl or per row (an N+1) fails here before it shows in bench/load.py."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from crawlweb.models import Crawl, Page
from frontier.models import Target

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
# session, user, the crawls, their Targets grouped by crawl and state, their sites seen
CRAWL_LIST_QUERIES = 5
# session, user, crawl, the live panel's five aggregates (see test_live_panel), site verdicts
# grouped, pairs grouped, evaluations, pairing state, bilingual sites, removed pairs, harvest curve, recent
# pages; the curve reads its points only when some site was judged (the watched crawl), so an empty crawl has
# one less
CRAWL_PAGE_QUERIES = 17
# session, user, crawl, verdicts grouped, pairs grouped, evaluations, pairing state, sites, pairs
DISCOVERY_PANEL_QUERIES = 9


def _list_rows(body: bytes) -> dict[str, list[str]]:
    soup = BeautifulSoup(body, "html.parser")
    return {row.a.get_text(strip=True): [td.get_text(strip=True) for td in row.select("td")]
            for row in soup.select("table.crawls tbody tr") if row.a}


def test_the_crawl_list_costs_the_same_few_queries_for_one_crawl_or_many(
        watched_crawl, staff_client, django_assert_num_queries):
    staff_client.get("/")  # the session is loaded and cached once
    with django_assert_num_queries(CRAWL_LIST_QUERIES):
        staff_client.get("/", **HTMX)
    for i in range(6):
        Crawl.objects.create(name=f"empty {i}")
    with django_assert_num_queries(CRAWL_LIST_QUERIES):
        body = staff_client.get("/", **HTMX).content
    rows = _list_rows(body)
    assert len(rows) == 7


def test_the_crawl_list_shows_each_crawls_own_sites_and_targets(watched_crawl, staff_client):
    empty = Crawl.objects.create(name="empty")
    rows = _list_rows(staff_client.get("/").content)
    targets = Target.objects.filter(crawl=watched_crawl)
    sites = Page.objects.filter(crawl=watched_crawl).values("site").distinct().count()
    assert sites > 0 and targets.exists()
    assert rows[f"watched #{watched_crawl.pk}"][3:] == [
        str(sites), str(targets.filter(state="pending").count()), str(targets.filter(state="failed").count()),
        str(targets.filter(state="skipped").count())]
    assert rows[f"empty #{empty.pk}"][3:] == ["0", "0", "0", "0"]


def test_a_crawls_page_costs_the_same_queries_for_a_big_crawl_and_an_empty_one(
        watched_crawl, staff_client, django_assert_num_queries):
    empty = Crawl.objects.create(name="empty")
    staff_client.get(f"/crawls/{empty.pk}/")
    for crawl, queries in ((watched_crawl, CRAWL_PAGE_QUERIES), (empty, CRAWL_PAGE_QUERIES - 1)):
        with django_assert_num_queries(queries):
            response = staff_client.get(f"/crawls/{crawl.pk}/")
        assert response.status_code == 200 and crawl.name in response.content.decode()
        with django_assert_num_queries(DISCOVERY_PANEL_QUERIES):
            assert staff_client.get(f"/crawls/{crawl.pk}/discovery/", **HTMX).status_code == 200
