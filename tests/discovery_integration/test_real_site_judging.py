"""Judging real sites in a back/forward crawl: crawls of the built real development web (REAL_WEB_DIR,
else <SHARED_DATA_DIR>/real-web), served by the test web server over HTTP on loopback.

- the detector reads page languages after the site's variety is decided (a SiteLanguage per site);
- a site whose first Target failed (a seed's root that answers 404, the site linked elsewhere by a
  hub) is still judged when the queues run dry;
- a site the detector judged not bilingual gets more of its pages read with the budget left, and
  the combined verdict's page counts decide.
"""
import json

import pytest

from crawlweb.crawler.urls import site_name
from crawlweb.devdata import real_web_dir
from crawlweb.models import Crawl, Page, SiteLanguage
from crawlweb.jobs.crawl_control import start_crawl
from frontier.models import SiteVerdict, Target
from tests.conftest import route_through
from tests.discovery_integration.conftest import discovery_crawl

pytestmark = pytest.mark.django_db(transaction=True)
REAL_WEB = real_web_dir()
NO_BACKLINKS = {"providers": [], "rate": 1000}
HUB = "hub1.realweb.test"
COAPRO = "aleksandar.coapro.gh.test"  # no index.html: the root is 404; hubs link en.html
JABUKE = "jabukesapeska.github.io.jabukesapeska.gh.test"  # hu root, sr/ and en/ homes trilingual


@pytest.fixture(scope="module")
def real_web_truth():
    path = REAL_WEB / "truth.json"
    if not path.is_file():
        pytest.skip(f"the real development web is not built at {REAL_WEB}: run scripts/build_realweb.py "
                    "(set REAL_WEB_DIR to where it is built)")
    sites = {s["host"]: s for s in json.loads(path.read_text(encoding="utf-8"))["sites"]}
    missing = {HUB, COAPRO, JABUKE} - set(sites)
    if missing:
        pytest.skip(f"the real development web at {REAL_WEB} lacks {', '.join(sorted(missing))}")
    return sites


@pytest.fixture
def through_real_web(real_web_truth, monkeypatch):
    from crawlweb.services.network import fetcher_for
    from crawlweb.testweb.generator import generate_web
    from crawlweb.testweb.server import TestWebServer

    server = TestWebServer(generate_web(seed=1, size=2, pages_per_site=2), host="127.0.0.1", port=0,
                           real_sites_dir=REAL_WEB)
    server.start()
    route_through(server, monkeypatch)
    yield real_web_truth
    server.stop()
    fetcher_for.cache_clear()


def only(hosts, truth) -> str:
    """url_rules keeping the crawl on ``hosts``."""
    return "\n".join(f"exclude HOST:^{h.replace('.', '[.]')}$" for h in truth if h not in hosts)


def verdicts_of(crawl):
    return {v.site.name: v for v in SiteVerdict.objects.filter(crawl=crawl).select_related("site")}


def test_a_site_whose_seed_root_fails_is_judged_through_a_hubs_link(sync_jobs, through_real_web, crawl_settings):
    # The seed http://aleksandar.coapro.gh.test/ answers 404; the hub's link to the same site
    # (en.html) was not queued, since the site already had a Target, and refill skipped any site
    # with a Target: the site was never judged.
    seeds = [f"http://{COAPRO}/", f"http://{HUB}/"]
    crawl = discovery_crawl(None, "cobfc", budget=12, seeds=seeds, backlinks=NO_BACKLINKS,
                            url_rules=only({HUB, COAPRO}, through_real_web))
    start_crawl(crawl)
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    assert Target.objects.filter(crawl=crawl, url=f"http://{COAPRO}/", status_code=404).exists()
    coapro = verdicts_of(crawl)[site_name(COAPRO)]
    assert coapro.bilingual, coapro.evidence
    assert coapro.evidence["detector_bilingual"] is True, "its SRB/ENG switch was read"
    # The detector read languages the site's variety had settled: one SiteLanguage for the site, and
    # the languages in its evidence are the stored pages' labels.
    assert SiteLanguage.objects.filter(crawl=crawl, site=coapro.site).count() == 1
    for read in coapro.evidence["pages"]:
        if read.get("language"):
            assert Page.objects.get(crawl=crawl, url=read["url"]).language == read["language"]


def test_a_site_the_detector_judged_no_gets_more_pages_read_and_its_pages_decide(sync_jobs, through_real_web,
                                                                                crawl_settings):
    # jabukesapeska's /sr/ and /en/ homes each carry the same welcome in Hungarian, Serbian and
    # English: a detector that reads one page (the /en/ home, read as Serbian) says no. Its deeper
    # /en/ pages are English.
    crawl = discovery_crawl(None, "cobfc", budget=20, seeds=[f"http://{JABUKE}/"], backlinks=NO_BACKLINKS,
                            url_rules=only({JABUKE}, through_real_web),
                            detector={"min_likelihood": 0.8, "max_fetches": 1})
    start_crawl(crawl)
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    verdict = verdicts_of(crawl)[site_name(JABUKE)]
    assert verdict.evidence["detector_bilingual"] is False, verdict.evidence["pages"]
    assert Target.objects.filter(crawl=crawl, origin=Target.Origin.REFILL, state=Target.State.DONE).exists()
    combined = verdict.evidence["combined"]
    assert verdict.bilingual and "pages" in combined["decided_by"], combined
    assert combined["page_languages"]["en"] >= 2 and combined["page_languages"]["sr"] >= 2


def test_the_detector_reads_on_to_a_page_whose_address_names_the_missing_language(sync_jobs, through_real_web,
                                                                                   crawl_settings):
    # The same site with the detector's default reading: after the trilingual /en/ home (read as
    # Serbian) it reads a deeper page of /en/, a link whose address names English (switch_hints),
    # and finds the site bilingual itself.
    crawl = discovery_crawl(None, "cobfc", budget=20, seeds=[f"http://{JABUKE}/"], backlinks=NO_BACKLINKS,
                            url_rules=only({JABUKE}, through_real_web))
    start_crawl(crawl)
    crawl.refresh_from_db()
    verdict = verdicts_of(crawl)[site_name(JABUKE)]
    assert verdict.evidence["detector_bilingual"] is True, verdict.evidence
    read = [(p["url"], p.get("language")) for p in verdict.evidence["pages"]]
    assert any("/en/" in url and language == "en" for url, language in read), read
