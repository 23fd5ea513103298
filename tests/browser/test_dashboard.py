"""An operator in a real browser: logs in, starts a crawl of a seed list, watches it finish, pauses nothing left."""
import pytest
from playwright.sync_api import expect

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
    # A finished crawl offers what applies to it, not Pause or Resume (issue 33).
    expect(page.locator("#crawl-actions button")).to_have_text(["Start again", "Re-harvest"])


def test_the_dashboard_asks_for_a_login(page, live_server):
    page.goto(f"{live_server.url}/")  # the log-in page of every role (staff land back on the dashboard)
    assert page.url == f"{live_server.url}/labeling/login/?next=/"


def test_the_crawl_page_draws_the_harvest_curve(staff_login, live_server):
    import hashlib

    from django.utils import timezone

    from crawlweb.models import Page
    from crawlweb.services.targets import Candidate, add_targets
    from frontier.models import SiteVerdict, Target

    crawl = Crawl.objects.create(name="cobfc run", strategy="cobfc", page_budget=50, pages_fetched=50)
    for number, at in enumerate((6, 18, 40)):
        url = f"http://sajt{number}.rs/"
        target = Target.objects.get(pk=add_targets(crawl, [Candidate(url)], origin="forward").new_ids[0])
        page = Page.objects.create(crawl=crawl, site=target.site, host=target.host, url=url, final_url=url,
                                   status_code=200, md5=hashlib.md5(url.encode()).hexdigest(), fetched_at=timezone.now())
        SiteVerdict.objects.create(crawl=crawl, site=target.site, page=page, bilingual=True, pages_fetched_at_decision=at)
    page = staff_login()
    page.goto(f"{live_server.url}/crawls/{crawl.pk}/")
    line = page.locator("svg polyline.harvest-line")
    assert line.get_attribute("data-points") == "0,0 6,1 18,2 40,3 50,3"
    box = line.bounding_box()
    assert box["width"] > 300 and box["height"] > 100, "the curve is drawn across the figure"
    assert page.locator("svg circle").count() == 3
    page.click("text=Compare with other crawls")
    page.wait_for_url("**/frontier/harvest/**")  # the click starts the navigation; the new page may not be in yet
    expect(page.locator("svg polyline.harvest-line")).to_have_count(1)
    assert "cobfc run" in page.locator("table.harvest-totals").inner_text()
