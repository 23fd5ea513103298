"""The dashboard answers "why is this Target here?" and counts Targets per layer."""
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from frontier.jobs import place_targets
from frontier.models import Target
from tests.frontier_integration.helpers import crawl_with_targets

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    client.force_login(get_user_model().objects.create_user("op", password="x", is_staff=True))
    return client


@pytest.fixture
def placed():
    crawl, ids = crawl_with_targets(["http://www.primer.rs/sr/usluge.html", "http://www.primer.rs/de/dienste.html",
                                     "http://www.primer.rs/en/services.html"])
    place_targets(crawl.pk, ids)
    return crawl, {t.url: t for t in Target.objects.filter(crawl=crawl)}


def test_the_target_page_shows_each_modules_layer_rule_evidence_and_priority(staff_client, placed):
    _, targets = placed
    target = targets["http://www.primer.rs/sr/usluge.html"]
    page = staff_client.get(reverse("frontier:target", args=[target.pk])).content.decode()
    for text in ("M01.L01 (Primary)", "needle_sr", "&quot;needle&quot;: &quot;sr&quot;", "M03.L0", "gd_top",
                 "M01 Primary x weight 4", "M01 rule needle_sr x weight 4", "M03 rank (tie-break)", "depth 1"):
        assert text in page, text
    assert f"{target.priority}" in page
    reserve = staff_client.get(reverse("frontier:target", args=[targets["http://www.primer.rs/de/dienste.html"].pk]))
    assert "M01.L03 (Reserve)" in reserve.content.decode() and "needle_de" in reserve.content.decode()


def test_the_layer_table_counts_targets_per_module_and_rule_and_lists_a_layer(staff_client, placed):
    crawl, targets = placed
    page = staff_client.get(reverse("frontier:crawl_layers", args=[crawl.pk])).content.decode()
    assert "M01.L01 Primary" in page and "needle_en" in page and "M03" in page
    listed = staff_client.get(reverse("frontier:layer_targets", args=[crawl.pk, "M01", 3])).content.decode()
    assert "http://www.primer.rs/de/dienste.html" in listed and "usluge" not in listed
    assert reverse("frontier:target", args=[targets["http://www.primer.rs/de/dienste.html"].pk]) in listed
    assert staff_client.get(reverse("frontier:layer_targets", args=[crawl.pk, "M01", 7])).status_code == 404


def test_the_crawl_page_links_to_its_layers(staff_client, placed):
    crawl, _ = placed
    page = staff_client.get(reverse("dashboard:crawl", args=[crawl.pk])).content.decode()
    assert reverse("frontier:crawl_layers", args=[crawl.pk]) in page


def test_an_unplaced_target_says_so(staff_client):
    _, ids = crawl_with_targets(["http://www.primer.rs/a.html"], config={})
    page = staff_client.get(reverse("frontier:target", args=[ids[0]])).content.decode()
    assert "Not placed by any module" in page


def test_the_pages_are_for_staff_only(client, placed):
    crawl, targets = placed
    for url in (reverse("frontier:target", args=[next(iter(targets.values())).pk]),
                reverse("frontier:crawl_layers", args=[crawl.pk])):
        response = client.get(url)
        assert response.status_code == 302 and "login" in response["Location"]
