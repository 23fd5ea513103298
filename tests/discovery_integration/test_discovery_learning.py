"""Learning iterations of COBFC, the two queues of the scheduler, and the discovery config keys."""
import hashlib

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from crawlweb.models import Crawl, Page
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.leasing import lease_batch
from crawlweb.services.targets import Candidate, add_targets
from frontier.learning import learning_iteration, train
from frontier.models import ClassifierModel, LayerPlacement, SiteVerdict, Target

pytestmark = pytest.mark.django_db


def fetched_forward(crawl, url, anchor, around, bilingual):
    """A forward link the crawl followed, its page, and the detector's verdict on the site."""
    target = Target.objects.get(pk=add_targets(crawl, [Candidate(url, anchor, around)], origin="forward").new_ids[0])
    page = Page.objects.create(crawl=crawl, site_id=target.site_id, host_id=target.host_id, url=url, final_url=url,
                               status_code=200, md5=hashlib.md5(url.encode()).hexdigest(),
                               fetched_at=timezone.now())
    Target.objects.filter(pk=target.pk).update(state=Target.State.DONE, page=page)
    SiteVerdict.objects.create(crawl=crawl, site_id=target.site_id, page=page, bilingual=bilingual)


def frontier_order(crawl):
    return list(Target.objects.filter(crawl=crawl, state=Target.State.PENDING)
                .order_by("-priority", "id").values_list("url", flat=True))


def test_a_learning_iteration_trains_both_queues_models_and_reorders_the_frontier():
    crawl = Crawl.objects.create(name="cobfc", strategy="cobfc", page_budget=100)
    for i in range(4):
        fetched_forward(crawl, f"http://dvojezicni{i}.rs/", "srpski english", "prevod translation", True)
        fetched_forward(crawl, f"http://shop{i}.com/cars", "cheap cars", "buy now discount", False)
    add_targets(crawl, [Candidate("http://auto-market.com/cars", "cheap cars", "discount offers")], origin="forward")
    add_targets(crawl, [Candidate("http://novi-sajt.rs/", "english srpski", "translation")], origin="forward")
    before = frontier_order(crawl)
    assert before[0] == "http://auto-market.com/cars", "no prioritization before the first iteration"

    report = learning_iteration(crawl)

    assert report["forward"] == {"version": 1, "relevant": 4, "irrelevant": 4}
    assert "skipped" in report["backlink"], "no backlink page fetched yet: nothing to learn from"
    assert frontier_order(crawl) == ["http://novi-sajt.rs/", "http://auto-market.com/cars"]
    placement = LayerPlacement.objects.get(target__url="http://novi-sajt.rs/", module="NB")
    assert placement.layer == 1 and placement.rank >= 0.8
    assert LayerPlacement.objects.get(target__url="http://auto-market.com/cars", module="NB").layer == 3
    # New links get the classifier's priority from the strategy, without another iteration.
    from frontier.strategies import strategy_for

    planned = strategy_for(crawl).classifiers.priorities("forward", [Candidate("http://drugi.rs/", "english srpski")])
    assert planned[0] > 2.0


def test_the_train_job_runs_each_iteration_once():
    crawl = Crawl.objects.create(name="cobfc", strategy="cobfc", page_budget=100)
    for i in range(2):
        fetched_forward(crawl, f"http://dvojezicni{i}.rs/", "english", "", True)
        fetched_forward(crawl, f"http://shop{i}.com/", "cars", "", False)
    train(crawl.pk, 1)
    train(crawl.pk, 1)
    assert list(ClassifierModel.objects.filter(crawl=crawl).values_list("kind", "version")) == [("forward", 1)]
    train(crawl.pk, 2)
    assert ClassifierModel.objects.filter(crawl=crawl, kind="forward").count() == 2


def test_the_scheduler_serves_the_queue_behind_its_share():
    crawl = Crawl.objects.create(name="obfc", strategy="obfc", page_budget=100,
                                 config={"queue_ratio": {"backlink": 1, "forward": 1}})
    add_targets(crawl, [Candidate(f"http://fwd{i}.rs/") for i in range(3)], origin="forward")
    add_targets(crawl, [Candidate(f"http://back{i}.rs/") for i in range(3)], origin="backlink")
    first = lease_batch(crawl, "w1", 10, 60)
    assert {lease.target.origin for lease in first} == {"backlink"}, "nothing fetched yet: backlinks are behind"
    Target.objects.filter(pk__in=[lease.target.pk for lease in first]).update(state="done", fetched_at=timezone.now())
    second = lease_batch(crawl, "w1", 10, 60)
    assert {lease.target.origin for lease in second} == {"forward"}
    # One Target per host per batch still holds within a queue.
    add_targets(crawl, [Candidate("http://fwd0.rs/other")], origin="forward")
    assert len({lease.host.pk for lease in second}) == len(second)


def test_a_bfs_crawl_keeps_one_queue():
    crawl = Crawl.objects.create(name="bfs", page_budget=100)
    add_targets(crawl, [Candidate("http://a.rs/")], origin="forward")
    add_targets(crawl, [Candidate("http://b.rs/")], origin="backlink")
    assert len(lease_batch(crawl, "w1", 10, 60)) == 2


@pytest.mark.parametrize("config, key", [
    ({"queue_ratio": {"backlink": -1, "forward": 2}}, "queue_ratio"),
    ({"backlinks": {"providers": [{"kind": "ftp"}]}}, "backlinks"),
    ({"backlinks": {"providers": [{"kind": "edge_file"}]}}, "backlinks"),
    ({"detector": {"min_likelihood": 1.5}}, "detector"),
    ({"learning": {"every": 0}}, "learning"),
    ({"topic": {"definition": "no weight here=X"}}, "topic"),
])
def test_bad_discovery_config_is_refused_by_key(config, key):
    with pytest.raises(ValidationError) as error:
        CrawlConfig.from_dict(config)
    assert key in error.value.message_dict


def test_good_discovery_config_is_accepted():
    CrawlConfig.from_dict({"queue_ratio": {"backlink": 1, "forward": 3}, "detector": {"min_likelihood": 0.5},
                           "learning": {"every": 50}, "topic": {"definition": "50: glass=A", "cutoff": 5},
                           "backlinks": {"providers": [{"kind": "graph"}], "rate": 2}})


def test_the_crawl_page_shows_bilingual_sites_found_against_pages_fetched(admin_client):
    crawl = Crawl.objects.create(name="fc", strategy="fc", page_budget=100, pages_fetched=40)
    fetched_forward(crawl, "http://dvojezicni.rs/", "english", "", True)
    fetched_forward(crawl, "http://shop.com/", "cars", "", False)
    SiteVerdict.objects.filter(crawl=crawl).update(pages_fetched_at_decision=12)
    from django.urls import reverse

    page = admin_client.get(reverse("dashboard:crawl", args=[crawl.pk])).content.decode()
    assert "Bilingual sites found vs pages fetched" in page
    assert "1 of 2 sites judged bilingual" in page
    assert "<tr><td>8</td><td>0</td></tr>" in page and "<tr><td>16</td><td>1</td></tr>" in page


def fetched_backlink(crawl, url, found_for_page, links_to):
    """A backlink page the crawl fetched (collected for ``found_for_page``) and its out-of-site links."""
    from crawlweb.models import Link

    target = Target.objects.get(pk=add_targets(crawl, [Candidate(url)], origin="backlink",
                                               source_page=found_for_page).new_ids[0])
    page = Page.objects.create(crawl=crawl, site_id=target.site_id, host_id=target.host_id, url=url, final_url=url,
                               status_code=200, md5=hashlib.md5(url.encode()).hexdigest(), fetched_at=timezone.now())
    Target.objects.filter(pk=target.pk).update(state=Target.State.DONE, page=page)
    Link.objects.bulk_create([Link(page=page, target_url=u, url_as_linked=u, kind="a", out_of_site=True)
                              for u in links_to])


def test_a_backlink_page_is_relevant_when_it_leads_to_more_bilingual_sites_than_most():
    from frontier.learning import training_sets

    crawl = Crawl.objects.create(name="cobfc", strategy="cobfc", page_budget=100)
    for name in ("prvi", "drugi", "treci", "cetvrti"):
        fetched_forward(crawl, f"http://www.{name}.rs/", name, "", True)
    fetched_forward(crawl, "http://www.prodavnica.com/", "shop", "", False)
    found_for = Page.objects.get(crawl=crawl, url="http://www.prvi.rs/")
    # A links page naming four bilingual sites (by other URLs than the ones the crawl fetched)...
    fetched_backlink(crawl, "http://www.imenik.rs/linkovi.html", found_for,
                     ["http://www.prvi.rs/sr/", "http://www.drugi.rs/en/", "http://treci.rs/?lang=sr",
                      "http://www.cetvrti.rs/index.en.html"])
    # ...and pages whose footer names the site they were found for and one more.
    for n in range(3):
        fetched_backlink(crawl, f"http://www.apoteka.rs/strana-{n}.html", found_for,
                         ["http://www.prvi.rs/", "http://www.drugi.rs/", "http://www.prodavnica.com/"])
    neighborhoods, labels = training_sets(crawl)["backlink"]
    relevant = {n.url for n, label in zip(neighborhoods, labels) if label}
    assert relevant == {"http://www.imenik.rs/linkovi.html"}


@pytest.mark.parametrize("benefit, bar", [
    ([0, 1, 1, 1, 4, 5], 1.0),  # the median page leads to one more bilingual site: hubs lead to more
    ([0, 0, 0, 2], 0.0),  # most lead nowhere: leading anywhere is relevant
    ([1, 1, 1], 0.0),  # all alike: everything relevant, the iteration skips this classifier
    ([], 0.0),
])
def test_the_backlink_bar_is_the_median_benefit(benefit, bar):
    from frontier.learning import backlink_bar

    assert backlink_bar(benefit) == bar


def test_the_detectors_fetches_do_not_count_in_the_queue_shares():
    crawl = Crawl.objects.create(name="obfc", strategy="obfc", page_budget=100,
                                 config={"queue_ratio": {"backlink": 1, "forward": 1}})
    add_targets(crawl, [Candidate(f"http://back{i}.rs/") for i in range(3)], origin="backlink")
    add_targets(crawl, [Candidate(f"http://fwd{i}.rs/") for i in range(2)], origin="forward")
    add_targets(crawl, [Candidate(f"http://back0.rs/page{i}") for i in range(4)], origin="detector")
    done = Target.objects.filter(crawl=crawl).filter(url__in=["http://back0.rs/", "http://back1.rs/",
                                                              "http://fwd0.rs/"]) \
        | Target.objects.filter(crawl=crawl, origin="detector")
    Target.objects.filter(pk__in=[t.pk for t in done]).update(state="done", fetched_at=timezone.now())
    # Two backlink pages of three chosen by the scheduler: the forward queue is behind its half.
    assert {lease.target.origin for lease in lease_batch(crawl, "w1", 10, 60)} == {"forward"}
