"""An operator watches a crawl's live panel in a real browser: the numbers move while it runs, with no
page reload (htmx swaps the panel), and end equal to the rows; a number's link opens those rows."""
import pytest

from crawlweb.models import Crawl, Page, SeedList
from crawlweb.jobs.crawl_control import start_crawl
from frontier.models import Target

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _shown(page, name: str) -> int:
    return int(page.locator(f"#crawl-status a[data-count='{name}']").inner_text())


def test_the_live_numbers_move_during_a_crawl_without_a_reload(staff_login, live_server, settings, crawl_settings,
                                                                through_test_web):
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "thread"
    seeds = SeedList.objects.create(name="test web")
    seeds.seeds.create(url="http://www.primer.rs/")
    # Politeness slows the crawl (one host, 0.4 s apart) so that the panel sees it run.
    crawl = Crawl.objects.create(name="watched live", seed_list=seeds, page_budget=14, follow_out_of_site=False,
                                 config={"host_interval": 0.4})
    page = staff_login()
    page.goto(f"{live_server.url}/crawls/{crawl.pk}/")
    page.evaluate("window.notReloaded = true")
    start_crawl(crawl)
    page.wait_for_function("() => Number(document.querySelector(\"#crawl-status a[data-count='pages']\").innerText) > 0")
    first = _shown(page, "pages")
    assert page.locator("#crawl-status .state-running").count() == 1 and first < 14
    page.wait_for_function(f"() => Number(document.querySelector(\"#crawl-status a[data-count='pages']\").innerText) > {first}")
    page.wait_for_selector("#crawl-status .state-finished", timeout=60000)
    assert page.evaluate("window.notReloaded") is True, "the panel was swapped in place, the page never reloaded"
    page.wait_for_timeout(2500)  # one more poll after the last rows were written
    assert _shown(page, "pages") == Page.objects.filter(crawl=crawl).count()
    assert _shown(page, "targets-done") == Target.objects.filter(crawl=crawl, state="done").count()
    assert page.locator("#crawl-status .pages-fetched").inner_text().strip() == "14 / 14"
    page.click("#crawl-status a[data-count='targets-done']")
    page.wait_for_selector("#result_list")
    assert page.locator("#result_list tbody tr").count() == Target.objects.filter(crawl=crawl, state="done").count()
