"""The tallies follow every write to Targets, pages and layer placements, whatever makes it (ORM rows,
bulk inserts with conflicts, bulk updates, cascaded deletes), on PostgreSQL and SQLite alike: the
counts read from them equal counts of the rows, before and after a fold."""
from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from console.dashboard.live import live_counters
from crawlweb.models import Crawl, Host, LayerTally, MemberTally, Page, PageTally, Site, TargetTally
from crawlweb.tallies import fold, triggers, trigger_sql
from crawlweb.tallies.feeds import TARGETS
from crawlweb.tallies.fold import fold_tallies
from frontier.models import LayerPlacement, Target
from tests.tallies.counts import assert_tallies_match

pytestmark = pytest.mark.django_db


def _hosts(n: int) -> list[Host]:
    hosts = []
    for i in range(n):
        site = Site.objects.create(name=f"site{i}.rs")
        hosts.append(Host.objects.create(name=f"www.site{i}.rs", site=site))
    return hosts


def _targets(crawl: Crawl, hosts: list[Host], per_host: int, origin: str = "forward") -> list[Target]:
    rows = [Target(crawl=crawl, url=f"http://{host.name}/{origin}/{i}", host=host, site=host.site, origin=origin)
            for host in hosts for i in range(per_host)]
    Target.objects.bulk_create(rows, ignore_conflicts=True)
    return list(Target.objects.filter(crawl=crawl, origin=origin).order_by("id"))


def _page(crawl: Crawl, host: Host, n: int, language: str = "sr", script: str = "Latn") -> Page:
    return Page.objects.create(crawl=crawl, site=host.site, host=host, url=f"http://{host.name}/p{n}",
                               final_url=f"http://{host.name}/p{n}", status_code=200, md5=f"{n:032d}",
                               language=language, script=script, fetched_at=timezone.now())


def _both_ways(crawl: Crawl, what: str) -> None:
    """Equal with the deltas unfolded, and again once folded."""
    assert_tallies_match(crawl.pk, f"{what}, deltas unfolded")
    fold_tallies(crawl.pk)
    assert not TargetTally.objects.filter(crawl_id=crawl.pk, folded=False).exists()
    assert_tallies_match(crawl.pk, f"{what}, folded")


def test_targets_are_counted_as_they_are_inserted_leased_fetched_failed_and_deleted():
    crawl, other = Crawl.objects.create(name="counted"), Crawl.objects.create(name="other")
    hosts = _hosts(3)
    targets = _targets(crawl, hosts, 4)
    _targets(other, hosts[:1], 2)
    Target.objects.bulk_create([Target(crawl=crawl, url=targets[0].url, host=hosts[0], site=hosts[0].site)],
                               ignore_conflicts=True)  # a URL the crawl has: no row, no count
    _both_ways(crawl, "inserted")
    Target.objects.filter(pk__in=[t.pk for t in targets[:5]]).update(state="leased", lease_owner="w")
    _both_ways(crawl, "leased")
    Target.objects.filter(pk__in=[t.pk for t in targets[:4]]).update(state="done", fetched_at=timezone.now())
    Target.objects.filter(pk=targets[4].pk).update(state="failed", error_kind="timeout")
    Target.objects.filter(pk__in=[t.pk for t in targets]).update(priority=2.0)  # no counted column: no delta
    assert_tallies_match(crawl.pk, "fetched and failed")
    Target.objects.filter(pk__in=[t.pk for t in targets[4:8]]).update(state="skipped", error_kind="robots")
    Target.objects.filter(pk=targets[9].pk).delete()
    _both_ways(crawl, "skipped and deleted")
    assert_tallies_match(other.pk, "the other crawl's own")


def test_a_host_leaves_the_hosts_with_work_when_its_last_open_target_closes():
    crawl = Crawl.objects.create(name="hosts")
    hosts = _hosts(2)
    targets = _targets(crawl, hosts, 2)
    fold_tallies(crawl.pk)
    assert assert_tallies_match(crawl.pk)["hosts_with_work"] == 2
    first_host = [t.pk for t in targets if t.host_id == hosts[0].pk]
    Target.objects.filter(pk__in=first_host).update(state="done")
    assert assert_tallies_match(crawl.pk, "unfolded")["hosts_with_work"] == 1
    fold_tallies(crawl.pk)
    assert assert_tallies_match(crawl.pk, "folded")["hosts_with_work"] == 1
    Target.objects.filter(pk=first_host[0]).update(state="pending")  # re-harvested: work again
    assert assert_tallies_match(crawl.pk, "revived")["hosts_with_work"] == 2


def test_pages_are_counted_per_language_and_site_as_they_are_stored_corrected_and_deleted():
    crawl = Crawl.objects.create(name="pages")
    hosts = _hosts(3)
    pages = [_page(crawl, hosts[i % 2], i, language="sr" if i % 3 else "en") for i in range(6)]
    _both_ways(crawl, "stored")
    Page.objects.filter(pk__in=[p.pk for p in pages[:3]]).update(language="hr")  # the site's decision corrects them
    Page.objects.filter(pk__in=[p.pk for p in pages]).update(title="same key: no delta")
    _both_ways(crawl, "corrected")
    Page.objects.filter(pk__in=[p.pk for p in pages if p.host_id == hosts[1].pk]).delete()  # database cleaning
    assert assert_tallies_match(crawl.pk, "deleted")["sites"] == 1
    _both_ways(crawl, "deleted")


def test_layer_placements_are_counted_with_their_targets_state():
    crawl = Crawl.objects.create(name="layers")
    targets = _targets(crawl, _hosts(2), 3)
    LayerPlacement.objects.bulk_create([LayerPlacement(target=t, module="M01", layer_id="M01.L01", layer=1, rule="r")
                                        for t in targets[:4]])
    _both_ways(crawl, "placed")
    # placed again, as learning does: an upsert that moves two Targets to another layer
    LayerPlacement.objects.bulk_create(
        [LayerPlacement(target=t, module="M01", layer_id="M01.L03", layer=3, rule="again") for t in targets[:2]]
        + [LayerPlacement(target=targets[5], module="M01", layer_id="M01.L02", layer=2, rule="new")],
        update_conflicts=True, unique_fields=["target", "module"], update_fields=["layer_id", "layer", "rule"])
    assert_tallies_match(crawl.pk, "placed again")
    Target.objects.filter(pk__in=[targets[0].pk, targets[2].pk]).update(state="leased")
    Target.objects.filter(pk=targets[0].pk).update(state="done")
    _both_ways(crawl, "leased and done")
    Target.objects.filter(pk=targets[2].pk).delete()  # its placement goes first (Django cascades)
    _both_ways(crawl, "deleted")


def test_a_fold_run_twice_changes_nothing_and_a_deleted_crawl_leaves_no_tally():
    crawl = Crawl.objects.create(name="folded")
    hosts = _hosts(2)
    _targets(crawl, hosts, 3)
    _page(crawl, hosts[0], 1)
    assert fold_tallies(crawl.pk) > 0
    folded = list(TargetTally.objects.order_by("id").values_list("id", "n"))
    assert fold_tallies(crawl.pk) == 0
    assert list(TargetTally.objects.order_by("id").values_list("id", "n")) == folded
    assert_tallies_match(crawl.pk)
    crawl.delete()
    assert not TargetTally.objects.exists() and not MemberTally.objects.exists()


def test_a_read_that_meets_many_deltas_folds_them_and_shows_the_same(monkeypatch):
    crawl = Crawl.objects.create(name="many deltas")
    targets = _targets(crawl, _hosts(4), 3)
    for target in targets:  # one statement each: a delta each
        Target.objects.filter(pk=target.pk).update(state="done")
    before = live_counters(crawl)
    assert TargetTally.objects.filter(crawl_id=crawl.pk, folded=False).count() > 5
    monkeypatch.setattr(fold, "READ_FOLD_AT", 5)
    assert live_counters(crawl)["states"] == before["states"] == {**before["states"], "done": 12, "pending": 0}
    assert not TargetTally.objects.filter(crawl_id=crawl.pk, folded=False).exists()
    assert live_counters(crawl)["states"] == before["states"]


def test_a_lost_trigger_is_put_back_after_migrate_and_the_tallies_counted_afresh():
    crawl = Crawl.objects.create(name="lost trigger")
    hosts = _hosts(2)
    targets = _targets(crawl, hosts, 2)
    name = trigger_sql.trigger_name(TARGETS, "UPDATE")
    _settle_deferred_checks()
    with connection.cursor() as cursor:  # what SQLite's rebuild of an altered table does to it
        cursor.execute(f"DROP TRIGGER {name} ON {TARGETS.table}" if connection.vendor == "postgresql"
                       else f"DROP TRIGGER {name}")
    assert triggers.missing(connection) == [name]
    Target.objects.filter(pk=targets[0].pk).update(state="done")  # uncounted
    _settle_deferred_checks()
    assert triggers.ensure(connection) is True
    assert triggers.missing(connection) == []
    assert_tallies_match(crawl.pk, "counted afresh")
    Target.objects.filter(pk=targets[1].pk).update(state="done")
    assert_tallies_match(crawl.pk, "counted again by the trigger")
    _settle_deferred_checks()
    assert triggers.ensure(connection) is False  # nothing lost: installed again, nothing recounted


def _settle_deferred_checks() -> None:
    """PostgreSQL changes no trigger of a table with foreign-key checks pending in the transaction
    (a migration has none): this test's transaction runs them now."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def test_a_fold_takes_its_deltas_a_batch_at_a_time(monkeypatch):
    crawl = Crawl.objects.create(name="batches")
    targets = _targets(crawl, _hosts(3), 4)
    for target in targets:
        Target.objects.filter(pk=target.pk).update(state="leased")
    deltas = sum(model.objects.filter(crawl_id=crawl.pk, folded=False).count()
                 for model in (TargetTally, MemberTally, PageTally, LayerTally))
    assert deltas > 5
    monkeypatch.setattr(fold, "FOLD_BATCH", 5)
    assert fold_tallies(crawl.pk) == deltas
    assert not TargetTally.objects.filter(folded=False).exists() and not MemberTally.objects.filter(folded=False).exists()
    assert_tallies_match(crawl.pk)
