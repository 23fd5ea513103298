"""The live panel of a crawl's page, read after a real short COBFC crawl (M01 + M03, backlinks,
pairing) of the generated test web: every number equals a count made here from the rows, and its
link leads to exactly those rows; the polled panel costs a fixed number of queries."""
from __future__ import annotations

from urllib.parse import quote

import pytest
from crawlweb.models import Crawl, Host, Page, Site
from evaluation.models import CandidatePair
from frontier.models import LayerPlacement, SiteVerdict, Target
from tests.dashboard_live.helpers import shown_counts

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _panel(client, crawl):
    response = client.get(f"/crawls/{crawl.pk}/", **HTMX)
    assert response.status_code == 200
    return shown_counts(response.content)


def _discovery(client, crawl):
    return shown_counts(client.get(f"/crawls/{crawl.pk}/discovery/").content)


def test_the_frontier_numbers_equal_counts_of_the_crawls_targets(watched_crawl, staff_client):
    shown = _panel(staff_client, watched_crawl)
    targets = Target.objects.filter(crawl=watched_crawl)
    for state in Target.State.values:
        assert shown[f"targets-{state}"][0] == targets.filter(state=state).count(), state
    origins = set(targets.values_list("origin", flat=True))
    assert {"forward", "backlink", "seed"} <= origins, "a back/forward crawl has both queues"
    for origin in origins:
        assert shown[f"queue-{origin}"][0] == targets.filter(origin=origin).count(), origin
        assert shown[f"queue-{origin}-pending"][0] == targets.filter(origin=origin, state="pending").count(), origin
    layers = set(LayerPlacement.objects.filter(target__crawl=watched_crawl).values_list("layer_id", flat=True))
    assert {"M01.L01", "M03.L01"} <= layers
    for layer in layers:
        placed = LayerPlacement.objects.filter(target__crawl=watched_crawl, layer_id=layer)
        assert shown[f"layer-{layer}"][0] == placed.count(), layer
        assert shown[f"layer-{layer}-pending"][0] == placed.filter(target__state="pending").count(), layer
    kinds = set(targets.exclude(error_kind="").values_list("error_kind", flat=True))
    assert kinds, "the test web has robots.txt refusals and broken links"
    for kind in kinds:
        assert shown[f"error-{kind}"][0] == targets.filter(error_kind=kind).count(), kind


def test_pages_sites_hosts_and_languages_equal_counts_from_the_database(watched_crawl, staff_client):
    shown = _panel(staff_client, watched_crawl)
    pages = Page.objects.filter(crawl=watched_crawl)
    assert shown["pages"][0] == pages.count() > 0
    assert shown["sites"][0] == Site.objects.filter(pages__crawl=watched_crawl).distinct().count()
    for language, script in set(pages.values_list("language", "script")):
        name = f"language-{language or 'none'}-{script or 'none'}"
        assert shown[name][0] == pages.filter(language=language, script=script).count(), name
    with_work = Host.objects.filter(targets__crawl=watched_crawl, targets__state__in=("pending", "leased")).distinct()
    assert shown["hosts-with-work"][0] == with_work.count()
    assert shown["hosts-busy"][0] == 0, "the crawl is over: nothing in flight"


def test_sites_and_pairs_numbers_equal_counts_from_the_database(watched_crawl, staff_client):
    shown = _discovery(staff_client, watched_crawl)
    verdicts = SiteVerdict.objects.filter(crawl=watched_crawl)
    assert shown["bilingual-sites"][0] == verdicts.filter(bilingual=True).count() > 0
    assert shown["sites-judged"][0] == verdicts.count()
    pairs = CandidatePair.objects.filter(crawl=watched_crawl)
    assert shown["pairs-kept"][0] == pairs.filter(kept=True).count() > 0
    assert shown["pairs-removed"][0] == pairs.filter(kept=False).count()
    for method in set(pairs.values_list("method", flat=True)):
        assert shown[f"pairs-{method}-kept"][0] == pairs.filter(method=method, kept=True).count(), method
        assert shown[f"pairs-{method}-removed"][0] == pairs.filter(method=method, kept=False).count(), method


def test_every_number_leads_to_exactly_the_rows_it_counts(watched_crawl, staff_client):
    shown = {**_panel(staff_client, watched_crawl), **_discovery(staff_client, watched_crawl)}
    assert len(shown) > 30
    for name, (number, href) in shown.items():
        response = staff_client.get(href)
        assert response.status_code == 200, (name, href)
        assert response.context["cl"].result_count == number, (name, href)


def test_a_pending_count_lists_pending_targets_of_this_crawl_only(watched_crawl, staff_client):
    other = Crawl.objects.create(name="other")
    target = Target.objects.filter(crawl=watched_crawl).first()
    Target.objects.create(crawl=other, url="http://www.primer.rs/other", host=target.host, site=target.site)
    number, href = _panel(staff_client, watched_crawl)["targets-pending"]
    rows = staff_client.get(href).context["cl"].result_list
    assert len(rows) == min(number, 100) and all(r.crawl_id == watched_crawl.pk and r.state == "pending" for r in rows)


def test_the_polled_panel_costs_the_same_few_queries_for_a_big_crawl_and_an_empty_one(
        watched_crawl, staff_client, django_assert_num_queries):
    empty = Crawl.objects.create(name="empty")
    staff_client.get(f"/crawls/{empty.pk}/", **HTMX)  # the session is loaded and cached once
    # session, user, crawl, Targets grouped, pages aggregate, languages, layers, hosts
    with django_assert_num_queries(8):
        staff_client.get(f"/crawls/{watched_crawl.pk}/", **HTMX)
    with django_assert_num_queries(8):
        staff_client.get(f"/crawls/{empty.pk}/", **HTMX)


def test_the_live_panel_and_the_site_page_are_for_staff_only(watched_crawl, client, django_user_model):
    site_id = SiteVerdict.objects.filter(crawl=watched_crawl).values_list("site_id", flat=True).first()
    urls = [f"/crawls/{watched_crawl.pk}/", f"/crawls/{watched_crawl.pk}/discovery/",
            f"/crawls/{watched_crawl.pk}/sites/{site_id}/"]
    for url in urls:  # a visitor: the one log-in page of every role, back here after it
        assert client.get(url, **HTMX)["Location"] == f"/labeling/login/?next={quote(url)}", url
    client.force_login(django_user_model.objects.create_user("evaluator", password="a-long-password-1"))
    for url in urls:  # an evaluator: told why, with the way to their own home (not the admin's log-in)
        response = client.get(url)
        assert response.status_code == 403, url
        assert "for operators" in response.content.decode() and 'href="/labeling/"' in response.content.decode()


def test_hosts_waiting_on_politeness_or_busy_are_counted_and_listed(watched_crawl, staff_client):
    from datetime import timedelta

    from django.utils import timezone

    hosts = list(Host.objects.filter(targets__crawl=watched_crawl, targets__state="pending").distinct()[:2])
    assert len(hosts) == 2, "the crawl ended with its budget spent: Targets are left on several hosts"
    later = timezone.now() + timedelta(hours=1)
    Host.objects.filter(pk=hosts[0].pk).update(next_fetch_at=later)
    Host.objects.filter(pk=hosts[1].pk).update(busy_until=later)
    shown = _panel(staff_client, watched_crawl)
    for name, host in (("hosts-waiting", hosts[0]), ("hosts-busy", hosts[1])):
        number, href = shown[name]
        listed = list(staff_client.get(href).context["cl"].result_list)
        assert number == 1 and listed == [host], name
