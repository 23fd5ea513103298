"""Sites whose other language only a browser reaches, and a site entered from its third language, in a
COBFC crawl of the test web (Issue 31, items 2 and 4): the BS Detector renders a candidate's page in
Debian's Chromium, and the rendered DOM's links feed it as fetched HTML's do."""
import os
import subprocess

import pytest

from crawlweb.crawler.browser_host import close_all_hosts
from crawlweb.models import Crawl, Link
from crawlweb.jobs.crawl_control import start_crawl
from crawlweb.testweb.script_sites import (BROWSER_LANGUAGE_HOST, FRAGMENT_HOST, OTHER_SITE_SCRIPT_HOST,
                                          THIRD_LANGUAGE_HOST)
from frontier.models import SiteVerdict, Target
from tests.chromium_processes import browsers_under
from tests.discovery_integration.conftest import discovery_crawl

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]
SCRIPT_SITES = [f"http://{BROWSER_LANGUAGE_HOST}/", f"http://{FRAGMENT_HOST}/"]


def verdicts_of(crawl: Crawl) -> dict[str, SiteVerdict]:
    return {v.site.name: v for v in SiteVerdict.objects.filter(crawl=crawl).select_related("site")}


def name(host: str) -> str:
    return host.removeprefix("www.")


def browsers_left() -> list[str]:
    """Processes under this test process that are a browser or Playwright's driver."""
    found = subprocess.run(["ps", "-o", "pid=,ppid=,comm=", "-e"], capture_output=True, text=True).stdout.split("\n")
    children: dict[str, list[tuple[str, str]]] = {}
    for line in filter(None, (row.split(None, 2) for row in found)):
        if len(line) == 3:
            children.setdefault(line[1], []).append((line[0], line[2]))
    out, stack = [], [str(os.getpid())]
    while stack:
        for pid, command in children.get(stack.pop(), []):
            out.append(command)
            stack.append(pid)
    return [c for c in out if "chrom" in c or "node" in c]


def test_cobfc_renders_the_pages_whose_switch_a_script_draws_and_finds_both_sites(sync_jobs, through_test_web,
                                                                                  crawl_settings):
    crawl = discovery_crawl(through_test_web, "cobfc", budget=30, seeds=SCRIPT_SITES)
    start_crawl(crawl)
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    verdicts = verdicts_of(crawl)
    for host in (BROWSER_LANGUAGE_HOST, FRAGMENT_HOST):
        verdict = verdicts[name(host)]
        assert verdict.bilingual, verdict.evidence
        rendered = verdict.evidence["rendered"]
        assert rendered and all(r["ms"] > 0 and not r.get("error") for r in rendered)
        assert set(verdict.evidence["languages"]) >= {"sr", "en"}
    landed = verdicts[name(BROWSER_LANGUAGE_HOST)].evidence["rendered"][0]["final_url"]
    assert landed.endswith("/verzija/english/pocetna.html"), "the script sent the English browser to English"
    switch = Link.objects.filter(page__crawl=crawl, kind="rendered", target_url=f"http://{FRAGMENT_HOST}/international/welcome.html")
    assert switch.filter(hreflang="en", anchor_text="English").exists(), "the fragment's switch, stored with its marks"
    rendered_page = switch.first().page  # the Target of a rendered link says where it came from, one level deeper
    target = Target.objects.get(crawl=crawl, url=f"http://{FRAGMENT_HOST}/international/welcome.html")
    page_depth = Target.objects.filter(crawl=crawl, page=rendered_page).values_list("depth", flat=True).first()
    assert (target.source_page_id, target.depth) == (rendered_page.pk, page_depth + 1)
    hosts_asked = {r.host for r in through_test_web.requests}
    assert OTHER_SITE_SCRIPT_HOST not in hosts_asked, "a render asks nothing of other sites"
    assert verdicts[name(FRAGMENT_HOST)].evidence["rendered"][0]["refused"] >= 1
    assert len(browsers_under(os.getpid())) == 1, "the process keeps one browser for its next detector jobs"
    close_all_hosts()  # what the process's exit does
    assert browsers_left() == [], "closing the process's browser leaves no browser or driver"


def test_without_rendering_the_same_crawl_misses_both_sites(sync_jobs, through_test_web, crawl_settings):
    crawl = discovery_crawl(through_test_web, "cobfc", budget=30, seeds=SCRIPT_SITES, detector={"render_pages": 0})
    start_crawl(crawl)
    verdicts = verdicts_of(crawl)
    for host in (BROWSER_LANGUAGE_HOST, FRAGMENT_HOST):
        assert not verdicts[name(host)].bilingual, str(verdicts[name(host)].evidence.get("combined"))
        assert "rendered" not in verdicts[name(host)].evidence


def test_a_site_entered_from_its_german_home_page_is_followed_to_serbian_and_english(sync_jobs, through_test_web,
                                                                                     crawl_settings):
    # No rendering: the detector alone must follow the German page's link to Serbian, then the Serbian
    # page's own switch to English, before it judges the site.
    crawl = discovery_crawl(through_test_web, "cobfc", budget=20, seeds=[f"http://{THIRD_LANGUAGE_HOST}/"],
                            detector={"render_pages": 0})
    start_crawl(crawl)
    verdict = verdicts_of(crawl)[name(THIRD_LANGUAGE_HOST)]
    assert verdict.bilingual, verdict.evidence
    assert verdict.evidence["page_language"] == "de"
    read = {p["url"]: p["language"] for p in verdict.evidence["pages"]}
    assert read == {f"http://{THIRD_LANGUAGE_HOST}/lesen/b/": "sr", f"http://{THIRD_LANGUAGE_HOST}/lesen/c/": "en"}


def test_a_site_whose_page_runs_no_script_is_judged_without_rendering(sync_jobs, through_test_web, crawl_settings):
    # The Croatian home page is outside the pair and links to few pages, but it has no <script> and no
    # event handler: Chromium would show what its HTML says, so the detector decides from the HTML alone.
    host = "www.obitelj.hr"
    crawl = discovery_crawl(through_test_web, "cobfc", budget=10, seeds=[f"http://{host}/"])
    start_crawl(crawl)
    verdicts = verdicts_of(crawl)
    verdict = verdicts[name(host)]
    assert not verdict.bilingual
    assert verdict.page.runs_scripts is False
    assert "rendered" not in verdict.evidence and "render_hints" not in verdict.evidence
    script_site = discovery_crawl(through_test_web, "cobfc", budget=10, seeds=[f"http://{FRAGMENT_HOST}/"])
    start_crawl(script_site)
    assert verdicts_of(script_site)[name(FRAGMENT_HOST)].page.runs_scripts is True
