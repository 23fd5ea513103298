"""Incremental site discovery over two iterations, through the normal crawl: rank, seed the top K,
the crawl fetches them, the crawl-finish pass re-scores, and the second ranking runs over the
seed set grown by the sites just crawled."""
import pytest
from django.core.management import call_command

from crawlweb.models import Crawl, Page
from crawlweb.jobs.crawl_control import start_crawl
from evaluation.models import CrawlScoring, DiscoveredSite, DiscoveryRun, SiteCredibility
from tests.conftest import set_job_mode
from tests.evaluation_integration.helpers import home_urls, pick_sites

pytestmark = pytest.mark.django_db(transaction=True)
TOP_K = 2


def _crawled(crawl, host):
    return Page.objects.filter(crawl=crawl, site__name=host).exists()


def _scored(crawl, host):
    return SiteCredibility.objects.filter(crawl=crawl, site__name=host).exists()


@pytest.mark.parametrize("mode", [pytest.param("rq", marks=pytest.mark.services), "thread", "sync"])
def test_two_iterations_crawl_the_new_seeds_and_rank_again_over_the_grown_seed_set(
        mode, settings, empty_queues, through_test_web, crawl_settings, run_jobs, capsys):
    set_job_mode(settings, mode)
    # each round's budget: 10 pages per new site, shared with what the crawl had left to fetch
    settings.PAIRS_DISCOVERY_TOP_K, settings.PAIRS_DISCOVERY_PAGES_PER_SITE = TOP_K, 10
    sites = pick_sites(through_test_web.truth(), [("bilingual-sr-en", "dirs"), ("bilingual-sr-en", "suffix-dot")])
    # in-site only: the crawl itself never leaves its sites, only discovery brings new ones
    crawl = Crawl.objects.create(name="discovery", page_budget=30, follow_out_of_site=False)
    start_crawl(crawl, extra_urls=home_urls(sites))
    run_jobs()
    first_seeds = set(SiteCredibility.objects.filter(crawl=crawl).values_list("site__name", flat=True))
    assert len(first_seeds) == 2

    call_command("pairs", "discover", str(crawl.pk), "--iterations", "2", "--no-wait")
    run_jobs()

    run = DiscoveryRun.objects.get(crawl=crawl)
    assert (run.iteration, run.finished, run.waiting) == (2, True, False)
    one = list(DiscoveredSite.objects.filter(crawl=crawl, iteration=1).order_by("rank"))
    two = list(DiscoveredSite.objects.filter(crawl=crawl, iteration=2).order_by("rank"))
    added_one = {d.host for d in one if d.added_as_seed}
    added_two = {d.host for d in two if d.added_as_seed}
    assert len(added_one) == len(added_two) == TOP_K and run.seeds_added == 2 * TOP_K
    assert {d.host for d in one if d.rank <= TOP_K} == added_one, "the top K by ΣWPR became seeds"
    assert all(set(d.linked_from) <= first_seeds for d in one), "ranking 1 is over the crawl's own sites"
    for host in added_one:
        assert _crawled(crawl, host) and _scored(crawl, host), f"{host}: crawled and scored before ranking 2"
    assert not {d.host for d in two} & (first_seeds | added_one), "sites crawled are seeds now, not external"
    assert any(set(d.linked_from) & added_one for d in two), "the sites added in iteration 1 rank the next ones"
    for host in added_two:
        assert _crawled(crawl, host) and _scored(crawl, host), f"{host}: the last round was crawled and scored too"
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED
    assert CrawlScoring.objects.get(crawl=crawl).pages_at_last_pass == crawl.pages_fetched
    out = capsys.readouterr().out
    assert "iteration 1:" in out and "2 added as seeds" in out


def test_the_discovered_sites_page_shows_each_iteration(client, django_user_model):
    crawl = Crawl.objects.create(name="shown", page_budget=1)
    DiscoveryRun.objects.create(crawl=crawl, iterations=2, iteration=2, finished=True, seeds_added=3)
    DiscoveredSite.objects.create(crawl=crawl, host="prvi.rs", rank=1, iteration=1, added_as_seed=True)
    DiscoveredSite.objects.create(crawl=crawl, host="drugi.rs", rank=1, iteration=2, linked_from=["prvi.rs"])
    client.force_login(django_user_model.objects.create_user("staff", password="x", is_staff=True))
    page = client.get(f"/pairs/crawls/{crawl.pk}/discovered/").content.decode()
    assert "iteration 2 of 2, 3 sites added as seeds" in page and "rankings done" in page
    assert page.index("drugi.rs") < page.index("prvi.rs"), "the latest ranking first"


def test_discovery_stops_early_when_a_ranking_finds_no_new_site(settings, empty_queues, through_test_web,
                                                               crawl_settings):
    set_job_mode(settings, "sync")
    settings.PAIRS_DISCOVERY_PAGES_PER_SITE = 4
    site = pick_sites(through_test_web.truth(), [("bilingual-sr-en", "dirs")])
    # url_rules keep the crawl on its one site: every site it links to is refused as a seed
    crawl = Crawl.objects.create(name="closed", page_budget=20,
                                 config={"url_rules": "allow HOST:^(" + "|".join(site[0]["hosts"]) + ")$"})
    start_crawl(crawl, extra_urls=home_urls(site))
    pages = Crawl.objects.get(pk=crawl.pk).pages_fetched
    call_command("pairs", "discover", str(crawl.pk), "--iterations", "3")
    run = DiscoveryRun.objects.get(crawl=crawl)
    assert (run.iteration, run.finished, run.seeds_added) == (1, True, 0)
    assert Crawl.objects.get(pk=crawl.pk).pages_fetched == pages, "no round to crawl"

