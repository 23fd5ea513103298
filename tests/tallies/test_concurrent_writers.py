"""The tallies under concurrent transactions on PostgreSQL (SQLite has one writer at a time): workers
changing Targets of one crawl never wait for each other on a counter, a fold moves only committed
deltas, a layer placement written while its Target changes state is counted under the state the
Target ends with, whichever commits first, and the lock that makes it so deadlocks with nothing."""
from __future__ import annotations

import random
import threading
import time

import pytest
from django.db import connection, transaction

from crawlweb.models import Crawl, Host, Site, TargetTally
from crawlweb.tallies.fold import fold_tallies
from frontier.models import LayerPlacement, Target
from tests.tallies.counts import assert_tallies_match

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
HOLD_S = 0.6  # how long the first transaction stays open once the second has started
STRESS_S = 6.0  # how long the writers of the stress test write


@pytest.fixture
def crawl():
    crawl = Crawl.objects.create(name="concurrent")
    for i in range(2):
        site = Site.objects.create(name=f"site{i}.rs")
        host = Host.objects.create(name=f"www.site{i}.rs", site=site)
        Target.objects.create(crawl=crawl, url=f"http://{host.name}/", host=host, site=site)
    return crawl


def _in_thread(work) -> threading.Thread:
    def run():
        try:
            work()
        finally:
            connection.close()  # this thread's own connection

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _lease(target_id: int, opened: threading.Event, release: threading.Event) -> None:
    with transaction.atomic():
        Target.objects.filter(pk=target_id).update(state="leased", lease_owner="first")
        opened.set()
        release.wait(10)


def test_two_workers_changing_targets_of_one_crawl_do_not_wait_for_a_counter(crawl):
    first, second = Target.objects.filter(crawl=crawl).order_by("id")
    opened, release = threading.Event(), threading.Event()
    holder = _in_thread(lambda: _lease(first.pk, opened, release))
    assert opened.wait(10)
    started = time.monotonic()
    Target.objects.filter(pk=second.pk).update(state="leased", lease_owner="second")  # commits at once
    waited = time.monotonic() - started
    release.set()
    holder.join(10)
    assert waited < 1.0, f"the second worker's update waited {waited:.2f} s for the first's transaction"
    assert assert_tallies_match(crawl.pk)["targets"] == {("leased", "forward", ""): 2}


def test_a_fold_takes_only_committed_deltas_while_a_worker_holds_its_own(crawl):
    first, _ = Target.objects.filter(crawl=crawl).order_by("id")
    opened, release = threading.Event(), threading.Event()
    holder = _in_thread(lambda: _lease(first.pk, opened, release))
    assert opened.wait(10)
    fold_tallies(crawl.pk)  # the worker's deltas are not committed: they stay
    release.set()
    holder.join(10)
    assert TargetTally.objects.filter(crawl_id=crawl.pk, folded=False).exists()
    assert_tallies_match(crawl.pk, "the worker's deltas summed with the folded rows")
    fold_tallies(crawl.pk)
    assert not TargetTally.objects.filter(crawl_id=crawl.pk, folded=False).exists()
    assert_tallies_match(crawl.pk, "all folded")


def _place(target_id: int) -> None:
    LayerPlacement.objects.create(target_id=target_id, module="M01", layer_id="M01.L01", layer=1, rule="r")


def test_a_placement_written_while_its_target_is_leased_counts_it_as_leased(crawl):
    target = Target.objects.filter(crawl=crawl).first()
    opened, release = threading.Event(), threading.Event()
    leasing = _in_thread(lambda: _lease(target.pk, opened, release))
    assert opened.wait(10)
    placing = _in_thread(lambda: _place(target.pk))  # waits for the lease's transaction (its Target's lock)
    time.sleep(HOLD_S)
    release.set()
    leasing.join(10)
    placing.join(10)
    assert assert_tallies_match(crawl.pk)["layers"] == {("M01", 1, "M01.L01"): (1, 0)}


def test_a_target_leased_while_its_placement_is_written_counts_the_placement_as_leased(crawl):
    target = Target.objects.filter(crawl=crawl).first()
    opened, release = threading.Event(), threading.Event()

    def place_and_hold():
        with transaction.atomic():
            _place(target.pk)
            opened.set()
            release.wait(10)

    placing = _in_thread(place_and_hold)
    assert opened.wait(10)
    leasing = _in_thread(lambda: Target.objects.filter(pk=target.pk).update(state="leased"))
    time.sleep(HOLD_S)
    release.set()
    placing.join(10)
    leasing.join(10)
    assert assert_tallies_match(crawl.pk)["layers"] == {("M01", 1, "M01.L01"): (1, 0)}


def test_placements_and_leases_of_one_crawl_at_once_never_deadlock_and_stay_counted():
    """Two placement writers (batches of 500 upserted, as place_targets and learning write them) and two
    lease-like writers (32 Targets leased in one UPDATE, then each fetched or put back) on random Targets
    of one crawl, for a few seconds: no transaction fails, and the layer counts equal the rows."""
    crawl = Crawl.objects.create(name="stress")
    site = Site.objects.create(name="stress.rs")
    host = Host.objects.create(name="www.stress.rs", site=site)
    Target.objects.bulk_create([Target(crawl=crawl, url=f"http://www.stress.rs/{i}", host=host, site=site)
                                for i in range(3000)])
    ids = list(Target.objects.filter(crawl=crawl).values_list("id", flat=True))
    stop, failures = time.monotonic() + STRESS_S, []

    def place(seed):
        chance = random.Random(seed)
        while time.monotonic() < stop:
            layer = chance.randint(1, 3)
            with transaction.atomic():
                LayerPlacement.objects.bulk_create(
                    [LayerPlacement(target_id=pk, module="M01", layer_id=f"M01.L0{layer}", layer=layer, rule="r")
                     for pk in sorted(chance.sample(ids, 1000))],  # in id order, as place_targets writes them
                    batch_size=500, update_conflicts=True, unique_fields=["target", "module"],
                    update_fields=["layer_id", "layer", "rule"])

    def lease(seed):
        chance = random.Random(seed)
        while time.monotonic() < stop:
            batch = chance.sample(ids, 32)
            with transaction.atomic():
                Target.objects.filter(pk__in=batch).update(state="leased")
                for pk in chance.sample(batch, len(batch)):
                    Target.objects.filter(pk=pk).update(state=chance.choice(["done", "pending"]))

    def recording(work, seed):
        def run():
            try:
                work(seed)
            except Exception as error:  # noqa: BLE001 -- any failure is the finding
                failures.append(f"{work.__name__}: {error}")
        return run

    writers = [_in_thread(recording(work, seed)) for seed, work in enumerate((place, place, lease, lease))]
    for writer in writers:
        writer.join(STRESS_S + 60)
    assert failures == []
    assert_tallies_match(crawl.pk, "after the writers")
