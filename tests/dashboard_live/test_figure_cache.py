"""DASHBOARD_CACHE_SECONDS: a running crawl's polled figures are counted once per window and web
process (the polls between cost only the session, the user and the crawl row); a crawl that is not
running, or the setting at 0, shows what the database holds on every read."""
from __future__ import annotations

import time

import pytest
from crawlweb.models import Crawl, Host, Page, Site
from django.core.cache import caches
from django.utils import timezone
from tests.dashboard_live.helpers import shown_counts

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
POLL_QUERIES_CACHED = 3  # session, user, crawl


@pytest.fixture(autouse=True)
def empty_cache():
    caches["default"].clear()
    yield
    caches["default"].clear()


def _crawl(state):
    return Crawl.objects.create(name="polled", state=state, started_at=timezone.now())


def _add_page(crawl, n):
    site = Site.objects.create(name=f"site{n}-{crawl.pk}.rs")
    host = Host.objects.create(name=site.name, site=site)
    Page.objects.create(crawl=crawl, site=site, host=host, url=f"http://{site.name}/", final_url=f"http://{site.name}/",
                        status_code=200, md5=f"{n:032d}", language="sr", script="Latn", fetched_at=timezone.now())


def _pages_shown(client, crawl):
    return shown_counts(client.get(f"/crawls/{crawl.pk}/", **HTMX).content)["pages"][0]


def test_a_running_crawls_panel_is_counted_once_per_window(staff_client, settings, django_assert_num_queries):
    settings.DASHBOARD_CACHE_SECONDS = 4  # wide enough for two requests on a loaded machine (1 s was not)
    crawl = _crawl(Crawl.State.RUNNING)
    _add_page(crawl, 1)
    assert _pages_shown(staff_client, crawl) == 1
    _add_page(crawl, 2)
    with django_assert_num_queries(POLL_QUERIES_CACHED):
        assert _pages_shown(staff_client, crawl) == 1  # within the window: the figures already counted
    time.sleep(4.1)
    assert _pages_shown(staff_client, crawl) == 2  # the window over: counted again


@pytest.mark.parametrize("state, seconds", [(Crawl.State.FINISHED, 2), (Crawl.State.PAUSED, 2),
                                            (Crawl.State.RUNNING, 0)])
def test_a_stopped_crawl_or_no_window_shows_every_change_at_once(state, seconds, staff_client, settings):
    settings.DASHBOARD_CACHE_SECONDS = seconds
    crawl = _crawl(state)
    _add_page(crawl, 1)
    assert _pages_shown(staff_client, crawl) == 1
    _add_page(crawl, 2)
    assert _pages_shown(staff_client, crawl) == 2


def test_the_discovery_panel_of_a_running_crawl_shows_its_fresh_state(staff_client, settings):
    settings.DASHBOARD_CACHE_SECONDS = 5
    crawl = _crawl(Crawl.State.RUNNING)
    staff_client.get(f"/crawls/{crawl.pk}/discovery/", **HTMX)
    Crawl.objects.filter(pk=crawl.pk).update(name="renamed while cached")
    body = staff_client.get(f"/crawls/{crawl.pk}/discovery/", **HTMX)
    assert body.status_code == 200 and body.context["crawl"].name == "renamed while cached"
