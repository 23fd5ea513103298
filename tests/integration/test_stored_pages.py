"""crawlweb.services.stored_pages.page_at: the page a crawl stored for a URL, read among its site's pages."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from crawlweb.models import Crawl, Host, Page, Site
from crawlweb.services.stored_pages import page_at

pytestmark = pytest.mark.django_db


def stored(crawl, host, url, final_url=None) -> Page:
    return Page.objects.create(crawl=crawl, site=host.site, host=host, url=url, final_url=final_url or url,
                               status_code=200, md5=f"{abs(hash((crawl.pk, url))):032d}"[:32],
                               fetched_at=timezone.now(), content_type="text/html")


@pytest.fixture
def crawl_with_pages():
    crawl, other_crawl = Crawl.objects.create(name="a"), Crawl.objects.create(name="b")
    site = Site.objects.create(name="primer.rs")
    www = Host.objects.create(name="www.primer.rs", site=site)
    bare = Host.objects.create(name="primer.rs", site=site)
    pages = {
        "about": stored(crawl, www, "http://www.primer.rs/o-nama.html"),
        "moved": stored(crawl, bare, "http://primer.rs/", final_url="http://www.primer.rs/sr/"),
        "elsewhere": stored(other_crawl, www, "http://www.primer.rs/en/"),
    }
    return crawl, site, pages


def test_a_page_is_found_by_the_url_it_was_requested_as_or_redirected_to(crawl_with_pages):
    crawl, site, pages = crawl_with_pages
    assert page_at(crawl.pk, "http://www.primer.rs/o-nama.html") == pages["about"]
    assert page_at(crawl.pk, "http://www.primer.rs/sr/") == pages["moved"]  # primer.rs/ redirected there
    assert page_at(crawl.pk, "http://primer.rs/", site_id=site.pk) == pages["moved"]


def test_another_crawls_page_an_unknown_host_and_an_unstored_url_give_none(crawl_with_pages):
    crawl, _site, _pages = crawl_with_pages
    assert page_at(crawl.pk, "http://www.primer.rs/en/") is None
    assert page_at(crawl.pk, "http://www.nepoznat.rs/") is None
    assert page_at(crawl.pk, "http://www.primer.rs/kontakt.html") is None


def test_the_url_it_was_requested_as_comes_before_a_redirect_to_it(crawl_with_pages):
    crawl, site, pages = crawl_with_pages
    www = Host.objects.get(name="www.primer.rs")
    direct = stored(crawl, www, "http://www.primer.rs/sr/")
    assert page_at(crawl.pk, "http://www.primer.rs/sr/") == direct


@pytest.mark.parametrize("known_site", [True, False])
def test_the_look_up_is_one_statement_over_the_sites_pages_not_the_crawls(crawl_with_pages, known_site):
    crawl, site, pages = crawl_with_pages
    with CaptureQueriesContext(connection) as queries:
        found = page_at(crawl.pk, "http://www.primer.rs/o-nama.html", site_id=site.pk if known_site else None)
    assert found == pages["about"]
    (sql,) = [q["sql"] for q in queries.captured_queries]
    assert '"site_id" = ' in sql and '"crawl_id" = ' in sql
