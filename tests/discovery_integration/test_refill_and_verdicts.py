"""A back/forward crawl uses its budget when its queues run dry, and every crawl stores site verdicts:
real crawls of the test web and of the real development sites, over HTTP on loopback."""
import pytest

from crawlweb.crawler.urls import site_name
from crawlweb.devdata import shared_data_dir
from crawlweb.models import Crawl
from crawlweb.jobs.crawl_control import start_crawl
from frontier.models import SiteVerdict, Target
from tests.conftest import route_through
from tests.discovery_integration.conftest import bilingual_homes, discovery_crawl

pytestmark = pytest.mark.django_db(transaction=True)
NO_BACKLINKS = {"providers": [], "rate": 1000}
REAL_SITES = shared_data_dir() / "real-sites"


def truth_of(server):
    return {site_name(h): s for s in server.web.truth()["sites"] for h in s["hosts"]}


def test_a_back_forward_crawl_whose_queues_run_dry_spends_its_budget(sync_jobs, through_test_web, crawl_settings):
    # No backlink provider: the seeds' out-of-site links are the whole forward queue, and the
    # outlinks of forward pages are never followed, so the crawl used to stop after a handful of pages.
    # (The seeds' own sites, expanded one level, and their deep guesses take about 30 pages.)
    crawl = discovery_crawl(through_test_web, "obfc", budget=80, backlinks=NO_BACKLINKS)
    start_crawl(crawl)
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    assert crawl.pages_fetched == 80
    refilled = Target.objects.filter(crawl=crawl, origin=Target.Origin.REFILL,
                                     source_page__targets__origin=Target.Origin.FORWARD)
    assert refilled.filter(state=Target.State.DONE).exists(), "links of forward pages were fetched"
    bilingual = set(SiteVerdict.objects.filter(crawl=crawl, bilingual=True).values_list("site_id", flat=True))
    judged_no = set(SiteVerdict.objects.filter(crawl=crawl, evidence__detector_bilingual=False)
                    .values_list("site_id", flat=True))
    in_site = [t for t in Target.objects.filter(crawl=crawl, origin=Target.Origin.REFILL).select_related("source_page")
               if t.site_id == t.source_page.site_id]
    assert any(t.site_id in bilingual for t in in_site), "in-site pages of bilingual sites"
    # then (stage 3) a few more pages of sites the detector judged not bilingual, and of no other site
    assert all(t.site_id in bilingual | judged_no for t in in_site)
    truth = truth_of(through_test_web)
    decided = SiteVerdict.objects.filter(crawl=crawl).select_related("site")
    assert decided.count() >= 5
    assert all(truth[v.site.name]["bilingual_sr_en"] for v in decided if v.bilingual and v.site.name in truth)


def test_a_back_forward_crawl_refills_rather_than_idle_while_a_retry_waits(sync_jobs, through_test_web,
                                                                           crawl_settings):
    # www.stonebridge.com's robots.txt answers 500: its Target is postponed by ten minutes, and the crawl's
    # queues are empty long before that. With an idle finish further off than the retry, such a crawl used
    # to wait for the retry (here until its time limit), its refill untouched.
    crawl_settings.CRAWLER_IDLE_FINISH_SECONDS = 900.0
    seeds = bilingual_homes(through_test_web) + ["http://www.stonebridge.com/"]
    crawl = discovery_crawl(through_test_web, "obfc", budget=40, seeds=seeds, backlinks=NO_BACKLINKS)
    Crawl.objects.filter(pk=crawl.pk).update(time_limit_seconds=90)
    start_crawl(crawl)
    crawl.refresh_from_db()
    assert (crawl.state, crawl.pages_fetched) == (Crawl.State.FINISHED, 40), (crawl.status_message, crawl.last_error)
    retry = Target.objects.get(crawl=crawl, error_kind="robots_unavailable", state=Target.State.PENDING)
    assert retry.attempts == 1, "the budget was spent before the retry was due"
    assert Target.objects.filter(crawl=crawl, origin=Target.Origin.REFILL, state=Target.State.DONE).exists()


def test_a_breadth_first_crawl_stores_a_combined_verdict_for_every_site(sync_jobs, through_test_web, crawl_settings):
    crawl = discovery_crawl(through_test_web, "bfs", budget=60)
    start_crawl(crawl)
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    sites = set(crawl.pages.values_list("site_id", flat=True))
    verdicts = {v.site_id: v for v in SiteVerdict.objects.filter(crawl=crawl).select_related("site")}
    assert set(verdicts) == sites
    truth = truth_of(through_test_web)
    bilingual = [v for v in verdicts.values() if v.bilingual]
    assert bilingual, "the seeds are bilingual sites"
    for verdict in bilingual:
        combined = verdict.evidence["combined"]
        assert truth[verdict.site.name]["bilingual_sr_en"]
        assert combined["decided_by"] and combined["detector"] is None
        # both languages on its own pages, or a kept pair (whose other side may be on its other-language subdomain)
        both = combined["page_languages"].get("sr") and combined["page_languages"].get("en")
        assert both or combined["kept_pairs"] >= 1, combined
    assert any(v.evidence["combined"]["kept_pairs"] >= 1 for v in bilingual), "kept pairs are evidence too"


@pytest.fixture
def through_real_sites(monkeypatch):
    if not (REAL_SITES / "truth.json").is_file():
        pytest.skip(f"real development sites absent: {REAL_SITES}")
    from crawlweb.services.network import fetcher_for
    from crawlweb.testweb.generator import generate_web
    from crawlweb.testweb.server import TestWebServer

    server = TestWebServer(generate_web(seed=1, size=2, pages_per_site=2), host="127.0.0.1", port=0,
                           real_sites_dir=REAL_SITES)
    server.start()
    route_through(server, monkeypatch)
    yield server
    server.stop()
    fetcher_for.cache_clear()


def test_the_detector_reads_through_a_real_script_redirect_and_flag_switches(sync_jobs, through_real_sites,
                                                                            crawl_settings):
    # dh_www's root only redirects in JavaScript; mipap's switch is two flag images without text.
    seeds = ["http://www.drustvohispanistasrbija.rs/", "http://mipap.mipap.gh.test/",
             "http://slavonian-trading.chainervk.gh.test/"]
    crawl = discovery_crawl(through_real_sites, "cobfc", budget=30, seeds=seeds, backlinks=NO_BACKLINKS)
    start_crawl(crawl)
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    verdicts = {v.site.name: v for v in SiteVerdict.objects.filter(crawl=crawl).select_related("site")}
    dh = verdicts["drustvohispanistasrbija.rs"]
    assert dh.bilingual and dh.evidence["combined"]["detector"] is True
    read = {page["url"]: page["language"] for page in dh.evidence["pages"]}
    assert read["http://www.drustvohispanistasrbija.rs/index-sr.html"] == "sr"
    assert read["http://www.drustvohispanistasrbija.rs/index-en.html"] == "en"
    assert verdicts["mipap.mipap.gh.test"].bilingual
    assert not verdicts["slavonian-trading.chainervk.gh.test"].bilingual, "Croatian-English is no sr-en site"
    assert crawl.pages_fetched == 30, "the budget went to the bilingual sites' pages when the queues ran dry"
