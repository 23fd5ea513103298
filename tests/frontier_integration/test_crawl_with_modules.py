"""A crawl of the test web with M01 + M03 configured, over real HTTP, in each job mode."""
from collections import defaultdict

import pytest
from django.db.models import Count

from crawlweb.models import Crawl, Page
from crawlweb.jobs.crawl_control import start_crawl
from frontier.layers.structure_graph import SiteStructureState, relative_part
from frontier.models import LayerPlacement, SiteStructure, Target
from tests.conftest import set_job_mode
from tests.frontier_integration.helpers import LAYERED
from tests.integration.helpers import crawl_of_test_web

pytestmark = pytest.mark.django_db(transaction=True)


# Sync mode is what bench/frontier_curve.py runs; here the two modes where placement runs beside the crawl.
@pytest.fixture(params=[pytest.param("rq", marks=pytest.mark.services), "thread"])
def job_mode(request, settings, empty_queues):
    return set_job_mode(settings, request.param)


def test_a_crawl_with_modules_places_every_target_and_keeps_m03_state(job_mode, through_test_web, crawl_settings,
                                                                       run_jobs):
    crawl = crawl_of_test_web(through_test_web, budget=20, seeds=3, config=LAYERED)
    start_crawl(crawl)
    run_jobs()
    run_jobs()  # in thread mode the "score" worker may be seen idle before the last step queued its placement
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED and crawl.last_error == ""
    targets = Target.objects.filter(crawl=crawl)
    per_target = LayerPlacement.objects.filter(target__crawl=crawl).values("target").annotate(n=Count("id"))
    missing = targets.exclude(pk__in=[row["target"] for row in per_target])
    assert not missing.exists(), list(missing.values_list("url", "origin", "state", "created_at"))
    assert len(per_target) == targets.count() > 60
    assert {row["n"] for row in per_target} == {2}, "one placement per module"
    rules = set(LayerPlacement.objects.filter(target__crawl=crawl).values_list("module", "rule"))
    assert {("M01", "needle_sr"), ("M01", "needle_en"), ("M03", "gdtop_leaf")} <= rules
    serbian = targets.filter(placements__module="M01", placements__rule="needle_sr")
    reserve = targets.filter(placements__module="M01", placements__layer=3)
    assert min(serbian.values_list("priority", flat=True)) > max(reserve.values_list("priority", flat=True))
    # GC counts every stored page once, per site: its root is 2 + the site's crawled URLs.
    rows = {row.site_id: SiteStructureState.from_nodes(row.nodes.values_list("node", "gc", "gb"))
            for row in SiteStructure.objects.filter(crawl=crawl)}
    pages = Page.objects.filter(crawl=crawl)
    assert pages.count() >= 15
    crawled = defaultdict(set)
    for page in pages:
        crawled[page.site_id].add(relative_part(page.url).partition("#")[0] or "/")
    assert {site_id: rows[site_id].gc["/"] for site_id in crawled} == \
        {site_id: 2 + len(urls) for site_id, urls in crawled.items()}
