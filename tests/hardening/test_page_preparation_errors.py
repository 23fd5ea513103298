"""A page that breaks its preparation (decoding, parsing, the dates of its headers) stays with its
Target: the crawl step stores the rest of its batch and goes on (issue 34, "a failure stays with what
caused it"). Real crawls over fuzz hosts of the test web on 127.0.0.1.
"""
import pytest

from bench.support.fuzz_crawl import crawl_fuzz_web
from crawlweb.testweb.fuzz import FuzzAnswer, FuzzHost, FuzzWeb

pytestmark = pytest.mark.django_db(transaction=True)

# Last-Modified dates beyond what a date holds: the first overflowed while the page was prepared (the
# whole batch lost, the crawl left running with its Targets leased); the second is year 10000 once in
# UTC (SQLite refused the row, PostgreSQL stored a date Python cannot read back).
OVERFLOWING_DATE = "Mon, 01 Jan 99999999999 00:00:00 GMT"
YEAR_10000_IN_UTC = "Fri, 31 Dec 9999 23:59:59 -0100"
SANE_DATE = "Wed, 21 Oct 2015 07:28:00 GMT"


def web_with_dates(*dates: str) -> FuzzWeb:
    """One host: a home page linking /p1.html … (each page also links the next), page i dated dates[i-1]."""
    pages = tuple(FuzzAnswer(headers=(("Last-Modified", date),), links=(f"/p{i + 2}.html",))
                  for i, date in enumerate(dates))
    home = FuzzAnswer(links=tuple(f"/p{i + 1}.html" for i in range(len(dates))))
    return FuzzWeb(hosts=(FuzzHost(robots=None, pages=(home,) + pages),))


def test_pages_with_impossible_last_modified_dates_are_stored_with_the_rest_of_their_batch(fuzz_settings):
    from crawlweb.models import Crawl, Page
    from frontier.models import Target

    result = crawl_fuzz_web(fuzz_settings, web_with_dates(OVERFLOWING_DATE, YEAR_10000_IN_UTC, SANE_DATE))
    crawl = Crawl.objects.get(pk=result.crawl_id)
    assert crawl.state == Crawl.State.FINISHED, (crawl.state, crawl.last_error)
    assert result.stopped == [] and result.problems == [] and result.lost == 0
    host = result.hosts[0]
    ends = {t.url.removeprefix(f"http://{host}"): t for t in Target.objects.filter(crawl=crawl)}
    for path in ("/", "/p1.html", "/p2.html", "/p3.html"):
        assert ends[path].state == Target.State.DONE and ends[path].page_id, (path, ends[path].last_error)
    dates = {page.url.removeprefix(f"http://{host}"): page.modified_at for page in Page.objects.filter(crawl=crawl)}
    assert dates["/p1.html"] is None and dates["/p2.html"] is None  # no date, rather than no page
    assert dates["/p3.html"].isoformat() == "2015-10-21T07:28:00+00:00"
