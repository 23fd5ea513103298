"""How deep-page guesses are shared out between check jobs."""
from datetime import timedelta

import pytest
from django.utils import timezone

from crawlweb.models import Crawl, Host, Site
from evaluation.jobs import SITES_PER_CHECK_JOB, queue_guesses_due
from evaluation.models import DeepCheck
from tests.conftest import set_job_mode

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def test_sites_on_crawl_delay_hosts_share_check_jobs_so_their_clocks_run_side_by_side(settings, empty_queues):
    import django_rq

    set_job_mode(settings, "rq")
    crawl = Crawl.objects.create(name="deep checks", state=Crawl.State.RUNNING)
    slow = {5, 13, 22, 31, 40}  # one site in nine asks a Crawl-delay, spread over the crawl
    site_ids = []
    for number in range(45):
        site = Site.objects.create(name=f"site{number}.rs")
        Host.objects.create(site=site, name=f"site{number}.rs", crawl_delay=2.0 if number in slow else None)
        DeepCheck.objects.create(crawl=crawl, site=site, page_url=f"http://site{number}.rs/",
                                 guessed_url=f"http://site{number}.rs/sr/", expected_language="sr",
                                 retry_at=timezone.now() - timedelta(seconds=1))
        site_ids.append(site.pk)

    queue_guesses_due(crawl.pk)  # a crawl step's sweep of the guesses whose hosts' waits are over
    jobs = [job.args[1] for job in django_rq.get_queue("score").get_jobs()]
    assert sorted(site for job in jobs for site in job) == site_ids, "every site checked, once"
    assert max(len(job) for job in jobs) == SITES_PER_CHECK_JOB
    slow_ids = {site_ids[number] for number in slow}
    assert [job for job in jobs if slow_ids & set(job)] == [jobs[-1]], "the Crawl-delay sites in one job"
