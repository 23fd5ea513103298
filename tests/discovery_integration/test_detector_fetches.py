"""The BS Detector's page downloads are real requests of the crawl: fetched politely, stored,
and counted in the page budget; the backlinks it schedules are on other sites."""
import pytest

from crawlweb.crawler.urls import registrable_domain
from crawlweb.models import Crawl, Page
from crawlweb.jobs.crawl_control import start_crawl
from frontier.models import SiteVerdict, Target
from tests.discovery_integration.conftest import bilingual_homes, discovery_crawl

pytestmark = pytest.mark.django_db(transaction=True)


def page_requests(server):
    """What the crawler asked the sites for, as the server saw it: pages, not robots.txt, the
    backlink service, redirect hops or requests the crawler gave up on (timeouts)."""
    return [r for r in server.requests if r.host != "backlinks.test" and not r.url.endswith("/robots.txt")
            and not 300 <= r.status < 400 and r.completed]


def test_the_detectors_downloads_are_crawl_pages_counted_in_the_budget(job_mode, through_test_web, crawl_settings,
                                                                        run_jobs):
    # Room enough that, with threads, the crawl's own steps do not spend the budget before the
    # detector's thread asks for its first pages.
    budget = 80
    crawl = discovery_crawl(through_test_web, "obfc", budget=budget)
    start_crawl(crawl)
    run_jobs()
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    verdicts = list(SiteVerdict.objects.filter(crawl=crawl))
    downloaded = sum(v.pages_downloaded for v in verdicts)
    assert downloaded >= 2, "the seeds' sites were decided by reading their other-language pages"
    # Every page request to a site is one of the crawl's pages, the detector's included, within the
    # budget. One job at a time keeps it exactly; a detector running beside a crawl step (threads)
    # may start the one request the budget still had room for when both looked. (HEAD requests are
    # the pairing's deep-page checks, which ask whether a page exists and download none.)
    downloads = [entry for entry in page_requests(through_test_web) if entry.method == "GET"]
    assert crawl.pages_fetched == len(downloads) <= budget + (1 if job_mode == "thread" else 0)
    # The detector's requests are Targets it leased: its own, or a pending one of the crawl's queues.
    assert Target.objects.filter(crawl=crawl, lease_owner__startswith="detector:",
                                 status_code__isnull=False).count() == downloaded
    checks = Target.objects.filter(crawl=crawl, origin=Target.Origin.DETECTOR)
    assert not checks.filter(state__in=[Target.State.PENDING, Target.State.LEASED]).exists(), \
        "a page fetched for the detector does not stay in the frontier"
    seed_verdict = next(v for v in verdicts if v.bilingual and v.pages_downloaded)
    read = [p for p in seed_verdict.evidence["pages"] if p["downloaded"]]
    assert read and all(Page.objects.filter(crawl=crawl, url=p["url"], language=p["language"]).exists()
                        for p in read), "the pages read are stored with the language the decision used"


def test_with_the_budget_spent_the_detector_decides_without_fetching(sync_jobs, through_test_web, crawl_settings):
    crawl = discovery_crawl(through_test_web, "obfc", budget=1, seeds=bilingual_homes(through_test_web, 1))
    start_crawl(crawl)
    crawl.refresh_from_db()
    assert crawl.pages_fetched == 1
    verdict = SiteVerdict.objects.get(crawl=crawl)
    assert verdict.pages_downloaded == 0 and verdict.evidence["budget_spent"] is True
    assert verdict.evidence["pages"] and all(p["not_read"] == "budget" for p in verdict.evidence["pages"])
    assert len(page_requests(through_test_web)) == 1


def test_backlinks_from_the_sites_own_pages_are_left_out(sync_jobs, through_test_web, crawl_settings):
    crawl = discovery_crawl(through_test_web, "obfc", budget=12)
    start_crawl(crawl)
    bilingual = SiteVerdict.objects.filter(crawl=crawl, bilingual=True).exclude(evidence__backlinks_found=None)
    assert bilingual.exists()
    assert any(v.evidence["backlinks_internal"] > 0 for v in bilingual), "the service names the site's own pages"
    for v in bilingual.select_related("page"):
        own = registrable_domain(v.page.final_url.split("/")[2])
        backlinks = Target.objects.filter(crawl=crawl, origin=Target.Origin.BACKLINK, source_page=v.page)
        assert backlinks.count() == v.evidence["backlinks_added"]
        assert all(registrable_domain(t.host.name) != own for t in backlinks.select_related("host"))
