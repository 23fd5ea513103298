"""The BS Detector's jobs: a crawl step's new sites are decided in jobs of at most
SITES_PER_DETECTOR_JOB sites, each site once, as one job per site decided them before."""
import django_rq
import pytest
from django.db import transaction

from crawlweb.jobs.crawl_control import start_crawl
from crawlweb.models import Crawl, Page
from frontier.discovery_followup import SITES_PER_DETECTOR_JOB, enqueue_detection
from frontier.models import SiteVerdict
from tests.discovery_integration.conftest import discovery_crawl

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def finished_cobfc_crawl(web, budget: int, seeds: int) -> Crawl:
    """A COBFC crawl of the test web's first ``seeds`` homes, run to its end (no page rendered)."""
    homes = [next(iter(site["home_urls"].values())) for site in web.web.truth()["sites"]]
    crawl = discovery_crawl(web, "cobfc", budget=budget, seeds=homes[:seeds], detector={"render_pages": 0})
    start_crawl(crawl)
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    return crawl


def stored_again(settings, crawl: Crawl, decide_now: bool = False):
    """The crawl's verdicts deleted and its pages handed to the detection follow-up as a step's, on the
    real score queue (emptied first); returns the queue and the number of sites queued."""
    SiteVerdict.objects.filter(crawl=crawl).delete()
    settings.REDIS_URL = settings.RQ_QUEUES["score"]["URL"]
    score = django_rq.get_queue("score")
    score.empty()
    page_ids = list(Page.objects.filter(crawl=crawl).values_list("id", flat=True))
    with transaction.atomic():
        return score, enqueue_detection(crawl, page_ids, decide_now=decide_now)


def test_new_sites_are_decided_in_jobs_of_ten_each_site_once_and_as_before(
        settings, sync_jobs, through_test_web, crawl_settings):
    crawl = finished_cobfc_crawl(through_test_web, budget=40, seeds=24)
    before = dict(SiteVerdict.objects.filter(crawl=crawl).values_list("site_id", "bilingual"))
    assert len(before) > SITES_PER_DETECTOR_JOB * 1.5, before  # enough sites for two jobs at least

    # The same pages stored again by a step: their sites' detection queued on the real score queue.
    score, queued = stored_again(settings, crawl)
    jobs = score.jobs
    assert queued == len(before)
    assert {job.func_name.rsplit(".", 1)[-1] for job in jobs} == {"detect_sites"}
    assert len(jobs) == -(-queued // SITES_PER_DETECTOR_JOB)
    assert all(len(job.args[1]) <= SITES_PER_DETECTOR_JOB for job in jobs)
    queued_pages = [page_id for job in jobs for page_id in job.args[1]]
    sites = [Page.objects.get(pk=page_id).site_id for page_id in queued_pages]
    assert sorted(sites) == sorted(before), "each site once, by its first HTML page"
    firsts = {Page.objects.filter(crawl=crawl, site_id=site, status_code=200, content_type="text/html")
              .order_by("id").first().pk for site in before}
    assert set(queued_pages) == firsts

    for job in jobs:
        job.perform()  # what a worker runs
    score.empty()
    assert dict(SiteVerdict.objects.filter(crawl=crawl).values_list("site_id", "bilingual")) == before


def test_a_job_reads_its_pages_links_and_stores_its_verdicts_in_one_statement_each_and_decides_as_one_job_per_site_does(
        settings, sync_jobs, through_test_web, crawl_settings):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from frontier.detector_job import detect_sites

    crawl = finished_cobfc_crawl(through_test_web, budget=30, seeds=12)
    firsts = [Page.objects.filter(crawl=crawl, site_id=site, status_code=200, content_type="text/html")
              .order_by("id").first().pk for site in SiteVerdict.objects.filter(crawl=crawl).values_list("site_id", flat=True)]
    assert len(firsts) >= 6, firsts
    firsts = sorted(firsts)[:SITES_PER_DETECTOR_JOB]

    def run(jobs: list[list[int]]):
        SiteVerdict.objects.filter(crawl=crawl).delete()
        with CaptureQueriesContext(connection) as queries:
            for page_ids in jobs:
                detect_sites(crawl.pk, page_ids)
        sql = [q["sql"] for q in queries.captured_queries]
        inserts = [q for q in sql if q.startswith('INSERT INTO "frontier_siteverdict"')]
        link_reads = [q for q in sql if q.startswith("SELECT") and 'FROM "crawlweb_link"' in q]
        rows = SiteVerdict.objects.filter(crawl=crawl).order_by("page_id")
        return (len(sql), (len(inserts), len(link_reads)),
                [(v.site_id, v.bilingual, v.pages_downloaded, v.evidence["languages"]) for v in rows],
                [v.pages_fetched_at_decision for v in rows])

    alone_statements, (alone_inserts, alone_link_reads), alone_verdicts, _ = run([[page_id] for page_id in firsts])
    together_statements, (together_inserts, together_link_reads), together_verdicts, fetched_at = run([firsts])
    assert together_verdicts == alone_verdicts and len(together_verdicts) == len(firsts)
    assert (alone_inserts, together_inserts) == (len(firsts), 1)
    # the input pages' links in one read for the job, the pages the detector reads in one read per round
    assert together_link_reads <= alone_link_reads - (len(firsts) - 1), (together_link_reads, alone_link_reads)
    assert together_statements < alone_statements, (together_statements, alone_statements)
    crawl.refresh_from_db()
    assert fetched_at == sorted(fetched_at) and fetched_at[-1] <= crawl.pages_fetched


def test_a_step_decides_itself_the_sites_that_need_no_request_and_queues_only_the_others(
        settings, sync_jobs, through_test_web, crawl_settings):
    crawl = finished_cobfc_crawl(through_test_web, budget=40, seeds=24)
    before = {v.site_id: v for v in SiteVerdict.objects.filter(crawl=crawl)}
    read_pages = {site for site, v in before.items() if v.evidence["pages"] or "scripts_read" in v.evidence}
    assert read_pages and set(before) - read_pages, "the web offers sites of both kinds"

    # The same pages stored again by a step, as the step's follow-up sees them.
    score, queued = stored_again(settings, crawl, decide_now=True)

    now = {v.site_id: v for v in SiteVerdict.objects.filter(crawl=crawl)}
    queued_sites = {Page.objects.get(pk=page_id).site_id for job in score.jobs for page_id in job.args[1]}
    assert queued == len(queued_sites) and set(now) | queued_sites == set(before) and not set(now) & queued_sites
    assert set(now) == set(before) - read_pages, "decided in the step: exactly the sites no page was read for"
    for site, verdict in now.items():
        assert (verdict.bilingual, verdict.pages_downloaded, verdict.evidence["pages"]) == (False, 0, [])
        assert verdict.evidence["link_scores"] == before[site].evidence["link_scores"]

    for job in score.jobs:
        job.perform()
    score.empty()
    # the jobs decide the others as before (their pages are stored now: read again, not downloaded)
    assert (dict(SiteVerdict.objects.filter(crawl=crawl).values_list("site_id", "bilingual"))
            == {site: v.bilingual for site, v in before.items()})

    # A later page of a site still waiting for its job is not decided in its step: that job may read a
    # switch the later page lacks.
    SiteVerdict.objects.filter(crawl=crawl).delete()
    html = Page.objects.filter(crawl=crawl, status_code=200, content_type="text/html").order_by("id")
    seconds = {}
    for page_id, site in html.values_list("id", "site_id"):
        seconds.setdefault(site, []).append(page_id)
    later = [ids[1] for ids in seconds.values() if len(ids) > 1]
    assert later
    with transaction.atomic():
        assert enqueue_detection(crawl, later, decide_now=True) == len(later)
    assert not SiteVerdict.objects.filter(crawl=crawl).exists()
    score.empty()
