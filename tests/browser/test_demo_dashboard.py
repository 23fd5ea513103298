"""What `make demo` shows a new user, in a real browser: the demo's crawl (COBFC with the detector,
M01 + M03 and pairing) of a test web with judging cases, run to its end, then its dashboard page.
The screenshot in the README (docs/dashboard.png) is taken here (tests.browser.screenshots)."""
import json

import pytest

from console import demo_crawl
from crawlweb.testweb.generator import generate_web
from crawlweb.testweb.server import TestWebServer
from tests.browser.screenshots import screenshot_path
from tests.conftest import route_through

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo_web(monkeypatch):
    server = TestWebServer(generate_web(seed=1, size=16, judging_cases=True), host="127.0.0.1", port=0)
    server.start()
    route_through(server, monkeypatch)
    yield server
    server.stop()


def test_the_demo_crawl_page_lists_bilingual_sites_pairs_kept_and_removed_and_an_evaluation(
        staff_login, live_server, settings, crawl_settings, demo_web, tmp_path):
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "thread"  # as in the demo; the evaluations wait for the pairs to be final
    # Idle means nothing to lease while the detector's jobs may still add backlinks: give them time, as the
    # demo's default (120 s) does.
    settings.CRAWLER_IDLE_FINISH_SECONDS = 15.0
    demo_crawl.ensure_demo_users("a-demo-password-1")
    crawl = demo_crawl.start_demo_crawl(demo_web.web.truth()["seed_urls"], 400, host_interval=0.0)
    # Drawn once the pairs are final: the filter's removed pairs (the judging cases') come from a crawl-wide
    # pass late in the crawl, and at a load of 17 on two cores the crawl alone took 230 s (the draw used to
    # give up waiting after 120 s in all, and drew from whatever was scored by then: 0 removed pairs).
    evaluations = demo_crawl.demo_evaluations_when_scored(crawl.pk, timeout=300, crawl_timeout=600)
    # an estimate evaluation measures precision; an improve one gives "Train now" something to learn from
    assert [e.purpose for e in evaluations] == ["estimate", "improve"]
    evaluation, improve = evaluations
    assert evaluation.items.exists() and improve.items.filter(purpose="improve").exists()
    assert demo_crawl.demo_evaluations_when_scored(crawl.pk, timeout=1) == evaluations, "running twice draws nothing new"

    page = staff_login()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/crawls/{crawl.pk}/")
    sites = page.locator("#bilingual-sites tbody tr")
    truly_bilingual = {site["host"] for site in demo_web.web.truth()["sites"] if site["kind"] == "bilingual-sr-en"}
    listed = [sites.nth(i).locator("td").first.inner_text() for i in range(sites.count())]
    assert listed and "No site judged bilingual yet" not in listed[0]
    assert any(host.endswith(name) for name in listed for host in truly_bilingual), (listed, truly_bilingual)
    assert all(sites.nth(i).locator("td").nth(3).inner_text().strip() for i in range(sites.count())), \
        "every bilingual site shows its evidence"
    pairs = page.locator("#pairs")
    assert "kept" in pairs.locator("h2").inner_text()
    assert page.locator("#pairing-state").inner_text().startswith("Pairs are final: the pass after the crawl ended")
    removed = pairs.locator("table").nth(1).locator("tbody tr")
    assert removed.count() >= 1 and removed.first.locator("td").nth(3).inner_text().strip(), \
        "removed pairs come with the filter's reason"
    assert page.locator(f"#pairs a[href='/labeling/{evaluation.pk}/judge/']").count() == 1
    page.screenshot(path=str(screenshot_path("dashboard.png", tmp_path)), full_page=False)

    page.goto(f"{live_server.url}/crawls/{crawl.pk}/summary.json")
    summary = json.loads(page.locator("body").inner_text())
    assert summary["bilingual_sites"] == len(listed)
    assert summary["pairs_kept"] > 0 and summary["pairs_removed"] >= removed.count() and summary["pairs_final"]
    assert {e["id"] for e in summary["evaluations"]} == {evaluation.pk, improve.pk}
