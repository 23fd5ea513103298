"""add_new_targets returns exactly the rows it created, leaves the URLs a crawl has alone, is safe when
two workers race, and recovers when a host row it knew was deleted."""
import threading
import time

import pytest
from django.db import transaction

from crawlweb.models import Crawl, Host
from crawlweb.services import hosts
from crawlweb.services.targets import Candidate, add_targets
from frontier.models import Target
from tests.integration.helpers import join_workers, start_workers

pytestmark = pytest.mark.django_db


def ids_of(crawl: Crawl, urls: list[str]) -> list[int]:
    by_url = dict(Target.objects.filter(crawl=crawl, url__in=urls).values_list("url", "id"))
    return [by_url[url] for url in urls]


def test_it_returns_the_new_ids_in_url_order_and_leaves_a_url_the_crawl_has_alone():
    crawl = Crawl.objects.create(name="new ids")
    add_targets(crawl, [Candidate("http://www.primer.rs/a.html", anchor_text="the seed")], origin="seed")
    before = Target.objects.filter(crawl=crawl).values().get()

    result = add_targets(crawl, [Candidate("http://www.primer.rs/a.html", anchor_text="again"),
                                 Candidate("http://www.primer.rs/b.html", anchor_text="first b"),
                                 Candidate("http://www.primer.rs/b.html", anchor_text="second b"),
                                 Candidate("http://other.example.com/c.html", img_alt="flag")],
                         origin="forward", depth=2)

    new = ["http://other.example.com/c.html", "http://www.primer.rs/b.html"]  # URL order: one lock order for all
    assert result.new_ids == ids_of(crawl, new) == sorted(result.new_ids)
    assert result.added == 2
    assert Target.objects.filter(crawl=crawl, url="http://www.primer.rs/a.html").values().get() == before
    b = Target.objects.get(crawl=crawl, url="http://www.primer.rs/b.html")
    assert (b.anchor_text, b.origin, b.depth, b.priority, b.state) == ("first b", "forward", 2, -2.0, "pending")
    c = Target.objects.select_related("host__site").get(crawl=crawl, url="http://other.example.com/c.html")
    assert (c.host.name, c.site_id, c.host.site.name, c.img_alt) == ("other.example.com", c.host.site_id,
                                                                     "other.example.com", "flag")


def test_running_it_twice_adds_nothing_the_second_time():
    crawl = Crawl.objects.create(name="twice")
    candidates = [Candidate(f"http://www.primer.rs/{n}.html") for n in range(5)]
    assert add_targets(crawl, candidates, origin="seed").added == 5
    again = add_targets(crawl, candidates, origin="seed")
    assert (again.added, again.new_ids) == (0, [])


def test_a_strategy_priority_is_kept_even_an_infinite_one():
    crawl = Crawl.objects.create(name="priority")
    result = add_targets(crawl, [Candidate("http://www.primer.rs/p.html", priority=float("-inf")),
                                 Candidate("http://www.primer.rs/q.html", priority=0.125)], origin="forward")
    assert list(Target.objects.filter(pk__in=result.new_ids).values_list("priority", flat=True)) == [
        float("-inf"), 0.125]


@pytest.mark.django_db(transaction=True)
def test_two_racing_calls_each_return_only_the_rows_they_created():
    crawl = Crawl.objects.create(name="race")
    url = "http://www.primer.rs/{}.html".format
    results, moments = {}, {}
    first_inserted = threading.Event()

    def first():
        try:
            with transaction.atomic():
                results["first"] = add_targets(crawl, [Candidate(url(n), anchor_text="first") for n in (1, 2, 3)],
                                               origin="seed")
                first_inserted.set()
                time.sleep(0.5)  # the second call reaches its insert meanwhile and must wait for this commit
                moments["first commits"] = time.monotonic()
        finally:
            first_inserted.set()

    def second():
        first_inserted.wait(10)
        results["second"] = add_targets(crawl, [Candidate(url(n), anchor_text="second") for n in (2, 3, 4)],
                                        origin="seed")
        moments["second returns"] = time.monotonic()

    join_workers(start_workers(first, second))

    assert moments["second returns"] > moments["first commits"], "the calls did not overlap"
    assert results["first"].new_ids == ids_of(crawl, [url(1), url(2), url(3)])
    assert results["second"].new_ids == ids_of(crawl, [url(4)])
    assert results["second"].added == 1
    assert dict(Target.objects.filter(crawl=crawl).values_list("url", "anchor_text")) == {
        url(1): "first", url(2): "first", url(3): "first", url(4): "second"}


def test_a_host_row_deleted_after_it_was_used_is_created_again():
    crawl = Crawl.objects.create(name="deleted host")
    add_targets(crawl, [Candidate("http://www.gone.rs/a.html")], origin="seed")
    old_host = Host.objects.get(name="www.gone.rs")
    assert hosts.cached_host_ids({"www.gone.rs"}) == {"www.gone.rs": old_host.pk}  # this process remembers it
    old_host.delete()  # its Targets go with it, as with cleandb or the admin

    result = add_targets(crawl, [Candidate("http://www.gone.rs/b.html"), Candidate("http://www.here.rs/c.html")],
                         origin="forward")

    assert result.added == 2
    assert result.new_ids == ids_of(crawl, ["http://www.gone.rs/b.html", "http://www.here.rs/c.html"])
    target = Target.objects.select_related("host").get(crawl=crawl, url="http://www.gone.rs/b.html")
    assert target.host.name == "www.gone.rs" and target.host.pk != old_host.pk
    assert target.site_id == target.host.site_id
    # And the next call uses the new row.
    assert add_targets(crawl, [Candidate("http://www.gone.rs/d.html")], origin="forward").added == 1
    assert Target.objects.get(crawl=crawl, url="http://www.gone.rs/d.html").host_id == target.host_id


def test_a_host_created_in_a_transaction_that_rolled_back_is_created_again():
    crawl = Crawl.objects.create(name="rolled back host")
    with pytest.raises(RuntimeError), transaction.atomic():
        add_targets(crawl, [Candidate("http://www.never.rs/a.html")], origin="seed")
        assert "www.never.rs" in hosts.cached_host_ids({"www.never.rs"})  # remembered, not yet committed
        raise RuntimeError("the batch failed")
    assert not Host.objects.filter(name="www.never.rs").exists()

    result = add_targets(crawl, [Candidate("http://www.never.rs/a.html")], origin="seed")
    assert result.added == 1
    assert Target.objects.get(pk=result.new_ids[0]).host.name == "www.never.rs"

