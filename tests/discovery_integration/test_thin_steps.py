"""A back/forward crawl left with few hosts to crawl asks its refill for more before it runs dry: its end
went on 2 hosts of big bilingual sites (15 pages/s) while pages of 1,700 other bilingual sites' stayed held."""
import pytest

from crawlweb.crawler.candidates import Candidate
from crawlweb.models import Crawl
from crawlweb.services.targets import add_targets
from frontier.models import SiteVerdict, Target
from tests.conftest import set_job_mode
from tests.discovery_integration.conftest import discovery_crawl

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def test_a_step_with_one_host_to_crawl_releases_the_held_pages_of_other_bilingual_sites(
        through_test_web, crawl_settings, settings, empty_queues):
    from crawlweb.jobs.crawl_step import crawl_step

    set_job_mode(settings, "rq")  # the step's next step and follow-ups wait on Redis: one step runs
    homes = [next(iter(site["home_urls"].values())) for site in through_test_web.web.truth()["sites"]][:4]
    crawl = discovery_crawl(through_test_web, "obfc", budget=100, seeds=homes[:1], backlinks={"providers": []})
    Crawl.objects.filter(pk=crawl.pk).update(state=Crawl.State.RUNNING)
    add_targets(crawl, [Candidate(homes[0])], origin=Target.Origin.SEED, depth=0)
    held = add_targets(crawl, [Candidate(url) for url in homes[1:]], origin=Target.Origin.REFILL, depth=1).new_ids
    Target.objects.filter(pk__in=held).update(state=Target.State.HELD)  # kept for the refill, as hold_site_pages does
    SiteVerdict.objects.bulk_create([SiteVerdict(crawl=crawl, site_id=t.site_id, bilingual=True, evidence={},
                                                 pages_downloaded=0, pages_fetched_at_decision=0)
                                     for t in Target.objects.filter(pk__in=held)])

    crawl_step(crawl.pk)  # leases the one pending Target: steps of one host
    crawl_step(crawl.pk)  # (the first fetched the host's robots.txt)
    assert Target.objects.filter(url=homes[0], state=Target.State.DONE).exists()
    states = dict(Target.objects.filter(pk__in=held).values_list("url", "state"))
    assert Target.State.HELD not in states.values(), states
