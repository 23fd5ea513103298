"""An operator in a real browser picks the "Barbosa COBFC" preset, adds M01 + M03, starts the crawl and
sees it running with its configuration and the method behind each choice."""
import pytest
from playwright.sync_api import expect

from crawlweb.models import Crawl, SeedList
from crawlweb.jobs.crawl_control import stop_crawl

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_operator_starts_barbosa_cobfc_with_m01_and_m03_and_sees_it_running(
        staff_login, live_server, settings, crawl_settings, through_test_web):
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "thread"
    seeds = SeedList.objects.create(name="test web")
    for url in through_test_web.web.truth()["seed_urls"][:2]:
        seeds.seeds.create(url=url)
    page = staff_login()
    # The login's redirect may still be loading: a change made before htmx has processed the page is lost.
    page.wait_for_load_state("load")
    page.wait_for_function("window.htmx !== undefined")
    page.select_option("#id_preset", label="Barbosa COBFC")
    # htmx swaps in the form the server filled: the strategy and the backlink provider are set.
    page.wait_for_function("document.querySelector('#id_strategy').value === 'cobfc'")
    assert page.locator("input[name=backlink_providers][value=graph]").is_checked()
    page.check("input[name=modules][value=M01]")
    page.check("input[name=modules][value=M03]")
    page.fill("#id_name", "barbosa from the browser")
    page.select_option("#id_seed_list", label="test web")
    page.fill("#id_page_budget", "400")
    page.fill("#id_host_interval", "1")  # slow enough to be seen running
    page.click("text=Start crawl")
    page.wait_for_selector("#crawl-status .state-running")
    crawl = Crawl.objects.get(name="barbosa from the browser")
    try:
        assert crawl.strategy == "cobfc"
        assert crawl.config["modules"] == {"M01": {"pair": "sr-en"}, "M03": {}}
        page.click("#config-fold summary")  # the configuration is folded until opened
        config = page.locator("table.crawl-config")
        assert "COBFC" in config.locator("tr[data-key=strategy]").inner_text()
        assert "Barbosa et al. 2011" in config.locator("tr[data-key=strategy]").inner_text()
        assert "weight 3" in config.locator("tr[data-key='modules.M01']").inner_text()
        assert "Structure module M03" in config.locator("tr[data-key='modules.M03']").inner_text()
        # The counters move without a reload (htmx polling).
        page.wait_for_function(
            "parseInt(document.querySelector('#crawl-status .pages-fetched').innerText) > 0", timeout=30000)
    finally:
        stop_crawl(crawl)


def test_a_bad_value_is_shown_on_one_line_naming_the_field(staff_login, live_server):
    page = staff_login()
    page.fill("#id_start_urls", "http://www.primer.rs/")
    page.select_option("#id_strategy", "focc")
    page.click("text=Start crawl")
    # expect() waits for the answer to the click: all_inner_texts() alone could read the page before it;
    # as long as this file's other waits, since CI's six shards on two cores once took more than expect's 5 s
    expect(page.locator("ul.form-errors li")).to_have_text(
        ["topic_definition: FocC needs a topic definition (lines 'weight: term=class')"], timeout=30000)
    assert not Crawl.objects.exists()
