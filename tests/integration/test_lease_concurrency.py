"""Two workers leasing from one crawl at the same moment (PostgreSQL, SKIP LOCKED): neither waits
for the other, and no host or Target goes to both."""
import threading
import time

import pytest
from django.db import transaction

from crawlweb.services.leasing import lease_batch
from frontier.models import Target
from tests.integration.helpers import join_workers, start_workers
from tests.integration.test_lease_order import crawl_with

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_second_leaser_skips_the_hosts_the_first_holds_and_neither_takes_a_target_twice():
    crawl = crawl_with({f"h{i:02d}": [1.0 - i / 100, 0.01] for i in range(40)})
    holding, done, leases, took = threading.Event(), threading.Event(), {}, {}

    def first():
        with transaction.atomic():  # its batch stays uncommitted, its rows locked, until the second has leased
            leases["w1"] = lease_batch(crawl, "w1", 25, 60)
            holding.set()
            done.wait(30)

    def second():
        holding.wait(30)
        started = time.monotonic()
        leases["w2"] = lease_batch(crawl, "w2", 25, 60)
        took["w2"] = time.monotonic() - started
        done.set()

    join_workers(start_workers(first, second), timeout=60)
    one, two = ({lease.host.pk for lease in leases[w]} for w in ("w1", "w2"))
    assert len(one) == 25 and two and not one & two
    assert took["w2"] < 5, "the second leaser skipped the locked rows instead of waiting for them"
    # The first took the 25 best hosts; the second the best of the hosts nobody held.
    assert sorted(lease.target.priority for lease in leases["w1"]) == sorted(1.0 - i / 100 for i in range(25))
    third = {lease.host.pk for lease in lease_batch(crawl, "w3", 40, 60)}
    assert not third & (one | two) and len(one | two | third) == 40, "every host leased once, by one worker"
    owners = Target.objects.filter(crawl=crawl, state=Target.State.LEASED).values_list("lease_owner", flat=True)
    assert len(owners) == 40 and set(owners) == {"w1", "w2", "w3"}
