"""An operator in a real browser: logs in, starts a crawl of a seed list, watches it finish, pauses nothing left."""
import pytest

from crawlweb.models import Crawl, SeedList

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_operator_starts_a_crawl_and_watches_its_counters_update(
        staff_login, live_server, settings, crawl_settings, through_test_web):
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "thread"
    seeds = SeedList.objects.create(name="test web")
    seeds.seeds.create(url="http://www.primer.rs/")
    page = staff_login()
    assert page.locator("h1").inner_text() == "Crawls"
    page.fill("#id_name", "from the browser")
    page.select_option("#id_seed_list", label="test web")
    page.fill("#id_page_budget", "12")
    page.uncheck("#id_follow_out_of_site")
    page.click("text=Start crawl")
    # The crawl page polls its counters with htmx until the crawl is over.
    page.wait_for_selector("#crawl-status .state-finished", timeout=60000)
    assert page.locator("#crawl-status .pages-fetched").inner_text().strip() == "12 / 12"
    crawl = Crawl.objects.get(name="from the browser")
    assert crawl.state == Crawl.State.FINISHED
    page.click("text=Pause")
    assert "cannot go to paused" in page.locator(".messages").inner_text()


def test_the_dashboard_asks_for_a_login(page, live_server):
    page.goto(f"{live_server.url}/")
    assert "/admin/login/" in page.url
