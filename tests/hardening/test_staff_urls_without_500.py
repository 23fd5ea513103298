"""URLs a staff member may type or follow that name nothing: each answers 404, never a server error
(a 23-digit admin id overflowed SQLite; django-rq's views read queues, workers and a table-less
admin model that are not there)."""
import pytest
from django.urls import reverse

from crawlweb.models import Crawl

pytestmark = pytest.mark.django_db
TOO_BIG = "99999999999999999999999"

MISSING = [
    "/django-rq/queues/0/nojob/delete/",
    "/django-rq/queues/0/nojob/",
    "/django-rq/queues/99/",
    "/django-rq/workers/0/x/",
    "/django-rq/schedulers/0/",
    "/admin/django_rq/dashboard/1/change/",
    "/admin/django_rq/dashboard/1/delete/",
    "/admin/django_rq/dashboard/1/history/",
    "/admin/r/01/01/",
    f"/admin/crawlweb/crawl/{TOO_BIG}/change/",
    f"/admin/crawlweb/crawl/{TOO_BIG}/delete/",
    f"/admin/crawlweb/crawl/{TOO_BIG}/history/",
    f"/admin/frontier/target/{TOO_BIG}/change/",
    f"/admin/auth/user/{TOO_BIG}/change/",
]


@pytest.fixture
def staff(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("root", password="x", is_staff=True,
                                                             is_superuser=True))
    client.raise_request_exception = False
    return client


@pytest.mark.parametrize("url", MISSING)
def test_a_url_naming_nothing_is_404_for_staff(staff, url):
    assert staff.get(url).status_code == 404


def test_a_real_crawl_still_has_its_admin_change_page(staff):
    crawl = Crawl.objects.create(name="real")
    assert staff.get(reverse("admin:crawlweb_crawl_change", args=[crawl.pk])).status_code == 200
