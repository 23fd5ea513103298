"""A back/forward crawl keeps the pages of a site judged bilingual ready for its refill (Targets held
out of the queues), releases the shallowest when its queues run dry, and reads the stored links on from
where its last refill stopped: on a crawl of 20,000 sites the refill read the crawl's first 5,000 links
again and again, found nothing new in them, and the crawl starved (docs/scale.md)."""
import pytest
from django.utils import timezone

from crawlweb.crawler.candidates import Candidate
from crawlweb.models import Crawl, Link, Page
from crawlweb.services.crawl_policy import LinkOut
from crawlweb.services.hosts import host_for
from crawlweb.services.leasing import lease_batch
from frontier.models import SiteVerdict, Target
from frontier.strategies import refill as refill_module
from frontier.strategies import strategy_for
from frontier.strategies.refill import hold_site_pages, refill, unjudged_sites, unsure_pages

pytestmark = pytest.mark.django_db


def fetched(crawl: Crawl, url: str, depth: int, links: list[tuple[str, bool]]) -> Page:
    """A page the crawl fetched (its Target done at ``depth``) with its links (URL, out of site)."""
    host = host_for(url.split("/")[2])
    page = Page.objects.create(crawl=crawl, site=host.site, host=host, url=url, final_url=url, status_code=200,
                               md5=url, fetched_at=timezone.now(), content_type="text/html")
    Target.objects.create(crawl=crawl, url=url, host=host, site=host.site, depth=depth, state=Target.State.DONE,
                          page=page, origin=Target.Origin.SEED if depth == 0 else Target.Origin.REFILL)
    Link.objects.bulk_create([Link(page=page, target_url=target, url_as_linked=target, out_of_site=out)
                              for target, out in links])
    return page


def bilingual_site(crawl: Crawl) -> Page:
    home = fetched(crawl, "http://dvojezicni.rs/", 0, [("http://dvojezicni.rs/en/", False),
                                                        ("http://dvojezicni.rs/o-nama/", False),
                                                        ("http://dvojezicni.rs/en/about/", False)])
    fetched(crawl, "http://dvojezicni.rs/o-nama/", 1, [("http://dvojezicni.rs/o-nama/tim/", False)])
    SiteVerdict.objects.create(crawl=crawl, site=home.site, page=home, bilingual=True)
    return home


def states(crawl: Crawl) -> dict[str, str]:
    return dict(Target.objects.filter(crawl=crawl).values_list("url", "state"))


def test_a_site_judged_bilingual_has_its_pages_held_until_the_queues_run_dry_shallowest_first():
    crawl = Crawl.objects.create(name="held", strategy="obfc", page_budget=100)
    home = bilingual_site(crawl)
    assert hold_site_pages(crawl, home.site_id) == 3
    held = {url for url, state in states(crawl).items() if state == Target.State.HELD}
    assert held == {"http://dvojezicni.rs/en/", "http://dvojezicni.rs/en/about/", "http://dvojezicni.rs/o-nama/tim/"}
    assert lease_batch(crawl, "w1", 10, 60) == [], "a held page is not leased"

    stage, ids = refill(crawl, limit=2)
    assert stage == "bilingual_pages"
    released = set(Target.objects.filter(pk__in=ids).values_list("url", flat=True))
    assert released == {"http://dvojezicni.rs/en/", "http://dvojezicni.rs/en/about/"}, "the shallowest first"
    assert states(crawl)["http://dvojezicni.rs/o-nama/tim/"] == Target.State.HELD
    [lease] = lease_batch(crawl, "w1", 10, 60)  # one host: one Target per batch
    assert lease.target.url in released


def test_a_release_takes_the_pages_of_many_sites_not_many_pages_of_one():
    # A host serves one request at a time: 32 pages of one site made each lease batch one page long.
    crawl = Crawl.objects.create(name="spread", strategy="obfc", page_budget=100)
    for name in ("prvi.rs", "drugi.rs", "treci.rs"):
        home = fetched(crawl, f"http://{name}/", 0, [(f"http://{name}/strana{i}/", False) for i in range(5)])
        SiteVerdict.objects.create(crawl=crawl, site=home.site, page=home, bilingual=True)
        hold_site_pages(crawl, home.site_id)
    deep = fetched(crawl, "http://duboki.rs/", 0, [("http://duboki.rs/o-nama/", False)])
    fetched(crawl, "http://duboki.rs/o-nama/", 1, [("http://duboki.rs/o-nama/tim/", False)])
    SiteVerdict.objects.create(crawl=crawl, site=deep.site, page=deep, bilingual=True)
    hold_site_pages(crawl, deep.site_id)  # its one held page is deeper than the others' fifteen
    stage, ids = refill(crawl, limit=4)
    assert stage == "bilingual_pages"
    released = Target.objects.filter(pk__in=ids)
    assert sorted(t.site.name for t in released) == ["drugi.rs", "duboki.rs", "prvi.rs", "treci.rs"]
    assert len(lease_batch(crawl, "w1", 10, 60)) == 4, "four hosts: four pages in one batch"


def test_an_unjudged_site_comes_before_the_held_pages():
    crawl = Crawl.objects.create(name="order", strategy="obfc", page_budget=100)
    home = bilingual_site(crawl)
    hold_site_pages(crawl, home.site_id)
    fetched(crawl, "http://imenik.rs/", 0, [("http://novi-sajt.rs/", True)])
    stage, ids = refill(crawl)
    assert stage == "unjudged_sites"
    assert list(Target.objects.filter(pk__in=ids).values_list("url", flat=True)) == ["http://novi-sajt.rs/"]
    assert all(state == Target.State.HELD for url, state in states(crawl).items() if "/en/" in url)


def test_the_strategy_holds_the_in_site_links_of_a_page_only_once_its_site_is_judged_bilingual():
    crawl = Crawl.objects.create(name="plan", strategy="cobfc", page_budget=100)
    page = fetched(crawl, "http://dvojezicni.rs/o-nama/", 1, [])
    target = Target.objects.get(crawl=crawl, page=page)
    links = [LinkOut(Candidate("http://dvojezicni.rs/en/about/"), False, "dvojezicni.rs"),
             LinkOut(Candidate("http://drugi.rs/"), True, "drugi.rs")]
    assert strategy_for(crawl).targets_for_page(target, page, None, links) == [], "a forward page: no outlinks"
    SiteVerdict.objects.create(crawl=crawl, site=page.site, page=page, bilingual=True)
    [planned] = strategy_for(crawl).targets_for_page(target, page, None, links)
    assert (planned.candidate.url_as_linked, planned.origin, planned.held) == (
        "http://dvojezicni.rs/en/about/", Target.Origin.REFILL, True)
    assert planned.priority == refill_module.refill_priority(2), "the refill's order, not the classifier's"


def verdict_reads_of_a_batch(announced: bool) -> tuple[list[int], int]:
    """Held links per page, and the verdict queries, of a strategy asked about a batch's pages (one
    bilingual site, three sites of one language, each page twice) as a crawl step asks it."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    crawl = Crawl.objects.create(name="batch", strategy="obfc", page_budget=100)
    home = bilingual_site(crawl)
    pages = [home] + [fetched(crawl, f"http://jednojezicni{i}.rs/", 1, []) for i in range(3)]
    targets = {page.pk: Target.objects.get(crawl=crawl, page=page) for page in pages}
    strategy = strategy_for(crawl)  # as a crawl step builds it for the batch it stores
    with CaptureQueriesContext(connection) as queries:
        if announced:
            strategy.expect_pages(pages)
        held = [len(strategy.targets_for_page(targets[page.pk], page, None,
                                              [LinkOut(Candidate(f"{page.url}dalje/"), False, page.site.name)]))
                for page in pages * 2]
    return held, sum(1 for q in queries.captured_queries if "frontier_siteverdict" in q["sql"])


def test_one_strategy_reads_the_verdicts_of_a_batchs_sites_in_one_query():
    held, reads = verdict_reads_of_a_batch(announced=True)
    assert held == [1, 0, 0, 0] * 2, "only the bilingual site's links are held"
    assert reads == 1, "one read for the batch, not one per site or page"


def test_a_page_its_batch_did_not_announce_has_its_sites_verdict_read_once():
    held, reads = verdict_reads_of_a_batch(announced=False)
    assert held == [1, 0, 0, 0] * 2
    assert reads == 4, "one read per site, not one per page"


def test_the_root_sitemaps_of_a_bilingual_host_are_offered_until_they_are_targets():
    from urllib.parse import urlsplit

    from crawlweb.services.targets import add_new_targets

    crawl = Crawl.objects.create(name="sitemaps", strategy="obfc", page_budget=100)
    bilingual_site(crawl)
    offered = refill_module.bilingual_sitemaps(crawl, limit=10)
    assert [new.candidate.normalized for new in offered] == ["http://dvojezicni.rs/sitemap.xml"]
    assert [new.candidate.normalized for new in refill_module.bilingual_sitemaps(crawl, limit=10)] == \
        ["http://dvojezicni.rs/sitemap.xml"], "not a Target yet: offered again"
    add_new_targets(crawl, offered)
    other = fetched(crawl, "http://drugi.rs/", 0, [])
    SiteVerdict.objects.create(crawl=crawl, site=other.site, page=other, bilingual=True)
    again = refill_module.bilingual_sitemaps(crawl, limit=10)
    assert [urlsplit(new.candidate.normalized).hostname for new in again] == ["drugi.rs"], "each host's once"
    Crawl.objects.filter(pk=crawl.pk).update(config={"sitemaps": False})
    assert refill_module.bilingual_sitemaps(Crawl.objects.get(pk=crawl.pk), limit=10) == []


def directory_of_sites(count: int, met: int) -> tuple[Crawl, list[str]]:
    """An OBFC crawl whose directory page links ``count`` sites, the first ``met`` of them met already
    (a Target each, through other links); returns the crawl and the sites' names in link order."""
    crawl = Crawl.objects.create(name="directory", strategy="obfc", page_budget=100)
    sites = [f"sajt{i:03}.rs" for i in range(count)]
    for name in sites[:met]:
        host = host_for(name)
        Target.objects.create(crawl=crawl, url=f"http://{name}/", host=host, site=host.site)
    fetched(crawl, "http://imenik.rs/", 0, [(f"http://{name}/pocetna/", True) for name in sites])
    return crawl, sites


def test_unjudged_sites_reads_on_past_links_whose_sites_the_crawl_has(monkeypatch):
    monkeypatch.setattr(refill_module, "REFILL_LINKS_READ", 10)  # a small window, as 5,000 are at scale
    crawl, sites = directory_of_sites(30, met=15)

    first = unjudged_sites(crawl, limit=4)
    assert [entry.candidate.normalized for entry in first] == [f"http://{name}/pocetna/" for name in sites[15:19]]
    refill_module.add_new_targets(crawl, first)
    second = unjudged_sites(crawl, limit=20)
    assert [entry.candidate.normalized for entry in second] == [f"http://{name}/pocetna/" for name in sites[19:]]
    refill_module.add_new_targets(crawl, second)
    assert unjudged_sites(crawl, limit=20) == []


def test_a_refill_wanting_few_sites_reads_few_links_first_then_four_times_more_a_read():
    import re

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    crawl, sites = directory_of_sites(120, met=100)
    with CaptureQueriesContext(connection) as queries:
        found = unjudged_sites(crawl, limit=2)
    assert [entry.candidate.normalized for entry in found] == [f"http://{name}/pocetna/" for name in sites[100:102]]
    reads = [int(re.search(r"LIMIT (\d+)", q["sql"]).group(1)) for q in queries.captured_queries
             if q["sql"].startswith('SELECT "crawlweb_link"')]
    assert reads == [16, 64, 256], "8 links per site wanted, then 4 times more, until the sites are found"


def test_unsure_pages_take_turns_read_on_past_known_links_and_stop_at_a_sites_maximum(monkeypatch):
    monkeypatch.setattr(refill_module, "REFILL_LINKS_READ", 8)
    crawl = Crawl.objects.create(name="unsure", strategy="obfc", page_budget=100)
    menus = {"veliki.rs": [f"http://veliki.rs/s{i:02}/" for i in range(30)],
             "mali.rs": [f"http://mali.rs/s{i}/" for i in range(3)]}
    homes = [fetched(crawl, f"http://{name}/", 0, [(url, False) for url in menu]) for name, menu in menus.items()]
    for home in homes:
        SiteVerdict.objects.create(crawl=crawl, site=home.site, page=home, bilingual=False)
    for url in menus["veliki.rs"][:10]:  # the crawl has the big site's first ten pages already
        Target.objects.create(crawl=crawl, url=url, host=homes[0].host, site=homes[0].site, state=Target.State.DONE)

    offered = []
    for _ in range(40):
        new = unsure_pages(crawl, limit=3)
        if not new:
            break
        urls = [entry.candidate.normalized for entry in new]
        assert sum("veliki" in url for url in urls) <= 2 and sum("mali" in url for url in urls) <= 2, urls
        refill_module.add_new_targets(crawl, new)
        for url in urls:  # fetched: each page shows its site's menu, as real pages do
            site = url.split("/")[2]
            Target.objects.filter(crawl=crawl, url=url).delete()
            fetched(crawl, url, 1, [(link, False) for link in menus[site]])
        offered += urls
    big = [url for url in offered if "veliki" in url]
    assert len(big) == len(set(big)) == refill_module.UNSURE_PAGES_MAX, "ten more pages of the big site, no more"
    assert not set(big) & set(menus["veliki.rs"][:10]), "none the crawl had"
    assert sorted(url for url in offered if "mali" in url) == menus["mali.rs"]
    assert unsure_pages(crawl, limit=3) == []


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_second_look_at_sites_judged_no_waits_while_pending_detector_jobs_may_need_the_budget_left(settings):
    # Sites without a candidate link are judged "no" in their crawl step, before the sites whose detector
    # jobs still read pages: those may be bilingual, and their pages come before a second look.
    import django_rq

    from crawlweb.jobs.queueing import enqueue
    from frontier.detector_job import detect_sites

    settings.REDIS_URL = settings.RQ_QUEUES["score"]["URL"]
    score = django_rq.get_queue("score")
    score.empty()

    def crawl_with_a_site_judged_no(name: str, budget: int) -> Crawl:
        crawl = Crawl.objects.create(name=name, strategy="cobfc", page_budget=budget)
        home = fetched(crawl, f"http://{name}/", 1, [(f"http://{name}/o-nama/", False)])  # not a seed
        SiteVerdict.objects.create(crawl=crawl, site=home.site, page=home, bilingual=False)
        enqueue(detect_sites, crawl.pk, [home.pk], queue_name="score")  # another site's job, pending
        return crawl

    # budget 40: less than what one job of ten sites may read (10 x max_fetches 5)
    small = crawl_with_a_site_judged_no("jednojezicni.rs", 40)
    assert unsure_pages(small, limit=3) == []
    assert refill(small) == ("", []), "nothing else to add: the crawl waits for its jobs"
    large = crawl_with_a_site_judged_no("monolingual.rs", 1000)  # room for the job's pages and more
    assert [entry.candidate.normalized for entry in unsure_pages(large, limit=3)] == ["http://monolingual.rs/o-nama/"]

    score.empty()  # the jobs are gone (a worker ran them)
    assert [entry.candidate.normalized for entry in unsure_pages(small, limit=3)] == ["http://jednojezicni.rs/o-nama/"]
