"""The dashboard draws the harvest curve (bilingual sites found vs pages fetched) as an SVG figure."""
import hashlib
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from crawlweb.models import Crawl, Page
from crawlweb.services.targets import Candidate, add_targets
from frontier.models import SiteVerdict, Target

pytestmark = pytest.mark.django_db


def verdict(crawl, url, bilingual, at):
    """The detector's verdict on the site of ``url``, stored when the crawl had fetched ``at`` pages."""
    target = Target.objects.get(pk=add_targets(crawl, [Candidate(url)], origin="forward").new_ids[0])
    page = Page.objects.create(crawl=crawl, site_id=target.site_id, host_id=target.host_id, url=url, final_url=url,
                               status_code=200, md5=hashlib.md5(url.encode()).hexdigest(), fetched_at=timezone.now())
    SiteVerdict.objects.create(crawl=crawl, site_id=target.site_id, page=page, bilingual=bilingual,
                               pages_fetched_at_decision=at, pages_downloaded=1)


def polylines(html: str) -> list[str]:
    return re.findall(r'<polyline class="harvest-line"[^>]*data-points="([^"]*)"', html)


@pytest.fixture
def two_crawls():
    obfc = Crawl.objects.create(name="experiment: obfc", strategy="obfc", page_budget=60, pages_fetched=60)
    verdict(obfc, "http://prvi.rs/", True, 5)
    verdict(obfc, "http://drugi.rs/", True, 30)
    verdict(obfc, "http://shop.com/", False, 31)
    cobfc = Crawl.objects.create(name="experiment: cobfc", strategy="cobfc", page_budget=60, pages_fetched=60)
    for number, at in enumerate((4, 12, 20)):
        verdict(cobfc, f"http://sajt{number}.rs/", True, at)
    return obfc, cobfc


def test_the_crawl_page_draws_its_curve_point_by_point(admin_client, two_crawls):
    obfc, _ = two_crawls
    page = admin_client.get(reverse("dashboard:crawl", args=[obfc.pk])).content.decode()
    assert "<svg" in page and "Bilingual sites found vs pages fetched" in page
    assert polylines(page) == ["0,0 5,1 30,2 60,2"]
    assert "bilingual site 2 found after 30 pages" in page, "each find is a dot with its numbers"
    assert "2 of 3 sites judged bilingual" in page
    assert f'href="{reverse("frontier:harvest")}?crawl={obfc.pk}"' in page


def test_the_harvest_page_puts_the_crawls_of_an_experiment_side_by_side(admin_client, two_crawls):
    obfc, cobfc = two_crawls
    page = admin_client.get(reverse("frontier:harvest"), {"crawl": [obfc.pk, cobfc.pk, "nonsense"]}).content.decode()
    assert polylines(page) == ["0,0 5,1 30,2 60,2", "0,0 4,1 12,2 20,3 60,3"]
    assert f"#{cobfc.pk} COBFC experiment: cobfc: 3 bilingual sites in 60 pages" in page
    assert re.search(r"<td>60</td><td>3</td>\s*<td>5\.0</td>", page), "per 100 pages: 3 sites in 60 pages"


def test_the_harvest_page_without_crawls_offers_the_choice(admin_client, two_crawls):
    page = admin_client.get(reverse("frontier:harvest")).content.decode()
    assert "<svg" not in page and "Choose crawls below" in page
    assert 'name="crawl" value="' in page


def test_the_harvest_page_asks_for_a_login(client, two_crawls):
    response = client.get(reverse("frontier:harvest"), {"crawl": two_crawls[0].pk})
    assert response.status_code == 302 and response["Location"].startswith("/labeling/login/?next=/")
