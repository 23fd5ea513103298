"""The operator's whole journey in a real browser: a COBFC crawl with M01 + M03 for sr-en made on the
dashboard's New crawl form, watched live (htmx polling, no reload) until bilingual sites show with their
evidence, paused and resumed, run to its end, then every export downloaded and read by the tool that
would read it downstream. The tutorial's docs/operator.png (docs/tutorial/first-crawl.md) is taken here
(tests.browser.screenshots)."""
import re
from pathlib import Path

import pytest

from crawlweb.jobs.queueing import wait_for_in_process_jobs
from crawlweb.models import Crawl
from crawlweb.jobs.crawl_control import stop_crawl
from evaluation.models import CandidatePair
from tests.evaluation_integration.helpers import home_urls, pick_sites, site_name_of
from tests.browser.screenshots import screenshot_path
from tests.exports_integration import validators

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# Two bilingual sites (pairs to find) and one Serbian-only one (a site judged, not bilingual).
KINDS = [("bilingual-sr-en", "dirs"), ("bilingual-sr-en", "suffix-dot"), ("mono-sr-cyrl", "single")]


def _count(page, name: str) -> int:
    return int(page.locator(f"a[data-count='{name}']").inner_text())


def _wait_count(page, name: str, above: int, timeout: float = 60000) -> int:
    page.wait_for_function(
        f"() => {{ const a = document.querySelector(\"a[data-count='{name}']\"); "
        f"return a && Number(a.innerText) > {above}; }}", timeout=timeout)
    return _count(page, name)


def _download(page, selector: str) -> bytes:
    with page.expect_download() as info:
        page.click(selector)
    return Path(info.value.path()).read_bytes()


def test_an_operator_runs_cobfc_with_m01_and_m03_from_the_form_to_every_export(
        staff_login, live_server, settings, crawl_settings, through_test_web, tmp_path):
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "thread"
    sites = pick_sites(through_test_web.web.truth(), KINDS)
    hosts = sorted({h for s in sites for h in s["hosts"]})
    bilingual = {site_name_of(s) for s in sites if s["bilingual_sr_en"]}
    page = staff_login()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_load_state("load")
    page.wait_for_function("window.htmx !== undefined")

    # The New crawl form: the preset fills the method, the operator adds the modules and the rest.
    page.select_option("#id_preset", label="Barbosa COBFC")
    page.wait_for_function("document.querySelector('#id_strategy').value === 'cobfc'")
    page.check("input[name=modules][value=M01]")
    page.check("input[name=modules][value=M03]")
    assert page.locator("#id_pair").input_value() == "sr-en"
    page.fill("#id_name", "operator journey")
    page.fill("#id_start_urls", "\n".join(home_urls(sites)))
    page.fill("#id_url_rules", "allow HOST:^(" + "|".join(re.escape(h) for h in hosts) + ")$")
    page.fill("#id_page_budget", "60")
    page.fill("#id_host_interval", "0.7")  # slow enough to be watched, paused and resumed
    page.click("text=Start crawl")
    page.wait_for_selector("#crawl-status .state-running")
    crawl = Crawl.objects.get(name="operator journey")
    try:
        assert crawl.strategy == "cobfc" and (crawl.source_language, crawl.target_language) == ("sr", "en")
        assert crawl.config["modules"] == {"M01": {"pair": "sr-en"}, "M03": {}}
        page.click("#config-fold summary")  # the configuration is folded until opened
        assert "Barbosa et al. 2011" in page.locator("table.crawl-config tr[data-key=strategy]").inner_text()
        page.evaluate("window.notReloaded = true")

        # The live numbers move without a reload.
        first = _wait_count(page, "pages", 0)
        _wait_count(page, "pages", first)

        # Pause: the state says so and the numbers stop; resume: they move again.
        page.click("form.actions button:has-text('Pause')")
        page.wait_for_selector("#crawl-status .state-paused")
        assert "paused by the operator" in page.locator("#crawl-status .status-message").inner_text()
        assert wait_for_in_process_jobs(60), "the paused crawl's step ended"
        page.wait_for_timeout(2500)  # a poll after the last step stored its pages
        paused_at = _count(page, "pages")
        page.wait_for_timeout(2500)
        assert _count(page, "pages") == paused_at, "a paused crawl fetches nothing"
        page.click("form.actions button:has-text('Resume')")
        page.wait_for_selector("#crawl-status .state-running")
        page.evaluate("window.notReloaded = true")  # the actions post and redirect; polling from here
        page.evaluate("window.harvestSwaps = 0; document.body.addEventListener('htmx:afterSwap', "
                      "e => { if (e.detail.target.id === 'harvest') window.harvestSwaps += 1; })")
        _wait_count(page, "pages", paused_at)

        # The bilingual sites show up while it runs (the discovery panel polls every 5 s), with evidence.
        _wait_count(page, "bilingual-sites", 0)
        # The harvest curve is swapped in place too, and ends with the sites judged.
        page.wait_for_function("window.harvestSwaps > 0", timeout=30000)
        page.wait_for_selector("#crawl-status .state-finished", timeout=120000)
        assert wait_for_in_process_jobs(120), "the crawl's follow-ups (pairs, verdicts) finished"
        assert page.evaluate("window.notReloaded") is True, "the panels were swapped in place"
        crawl.refresh_from_db()
        assert crawl.status_message.startswith(("page budget spent", "frontier empty")), crawl.status_message
        page.wait_for_function("document.querySelector('#harvest p') !== null && document.querySelector("
                               f"'#harvest p').innerText.startsWith('{len(bilingual)} of {len(sites)} sites judged')")
        page.reload()  # the last verdicts and pairs, and the WARC files, as the page lists them now
        rows = page.locator("#bilingual-sites tbody tr")
        listed = {rows.nth(i).locator("td").first.inner_text() for i in range(rows.count())}
        assert listed == bilingual, (listed, bilingual)
        assert all(rows.nth(i).locator("td").nth(3).inner_text().strip() for i in range(rows.count())), \
            "every bilingual site shows its evidence"
        assert _count(page, "pairs-kept") > 0
        page.screenshot(path=str(screenshot_path("operator.png", tmp_path)), full_page=False)

        # Every export, downloaded as the operator does, read by its downstream reader.
        page.click("#exports-fold summary")  # the exports are folded until opened
        exports = f"/crawls/{crawl.pk}/exports/"
        sites_csv = validators.read_sites_csv(_download(page, f"#exports a[href='{exports}sites.csv']"))
        assert {r["site"] for r in sites_csv if r["verdict"] == "bilingual"} == bilingual
        sites_json = validators.read_json(_download(page, f"#exports a[href='{exports}sites.json']"))
        assert {r["site"] for r in sites_json} == {r["site"] for r in sites_csv}
        pairs = validators.read_pairs_tsv(_download(page, f"#exports a[href='{exports}pairs.tsv']"))
        assert len(pairs) == CandidatePair.objects.filter(crawl=crawl).count() > 0
        units = validators.read_tmx(_download(page, f"#exports a[href='{exports}pairs.tmx']"))
        kept = {(p.source_url, p.target_url): p for p in CandidatePair.objects.filter(crawl=crawl, kept=True)}
        assert units and {(u["x-source-url"], u["x-target-url"]) for u in units} == set(kept)
        assert all(u["x-method"] == kept[(u["x-source-url"], u["x-target-url"])].method for u in units)
        warc = validators.read_warc(_download(page, f"#exports a[href='{exports}crawl.warc.gz']"))
        fetched = {uri for kind, uri in warc if kind == "response"}
        assert len(fetched) >= crawl.pages_fetched, (len(fetched), crawl.pages_fetched)
        first_file = page.locator("#exports table a[download]").first
        one_file = validators.read_warc(_download(page, f"#exports a[href='{first_file.get_attribute('href')}']"))
        assert one_file and set(one_file) <= set(warc)
        records = _download(page, f"#exports a[href='{exports}pages.jsonl']").decode("utf-8").splitlines()
        assert len(records) == crawl.pages.count()
        assert all(validators.read_json(line.encode())["url"] for line in records)
    finally:
        crawl.refresh_from_db()
        if crawl.state in (Crawl.State.RUNNING, Crawl.State.PAUSED):  # a failed assertion leaves nothing running
            stop_crawl(crawl)
        wait_for_in_process_jobs(120)
