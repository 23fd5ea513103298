"""URLs a staff member may type or follow that name nothing: each answers 404, never a server error
(a 23-digit admin id overflowed SQLite; django-rq's views read queues, workers and a table-less
admin model that are not there)."""
import pytest
from django.urls import reverse

from crawlweb.models import Crawl
from tests.hardening.test_every_view_is_guarded import named_patterns, sample_kwargs, world  # noqa: F401 - a fixture

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


# Odd values in every place of every URL (issue 34: "0 answers of 500 from any URL for any id or form value
# as staff"): ids no table can hold, negative and non-numeric ids where a pattern takes them, and query
# parameters the views read (pagination, sorting, filters, the admin's changelist) with values no form offers.
ODD_ARGUMENTS = (TOO_BIG, "-1", "abc", "%00")
ODD_QUERY = ("?page=abc&p=" + TOO_BIG + "&o=99.-99&q=%00&state=zz&sort=-zz&order=zz&since=zz&after=" + TOO_BIG
             + "&limit=-1&offset=" + TOO_BIG + "&id=abc&pk=" + TOO_BIG + "&crawl=abc&site=" + TOO_BIG
             + "&language=%00&kept=2&raw=zz&method=zz&format=zz&iteration=-1&layer=" + TOO_BIG)


def odd_urls(ids):
    """Every pattern with real ids and the odd query, then with one argument odd at a time."""
    seen = set()
    for name, arguments, route in named_patterns():
        if name.endswith("logout"):
            continue
        real = sample_kwargs(name, arguments, ids)
        variants = [real] + [{**real, arg: odd} for arg in arguments for odd in ODD_ARGUMENTS]
        for kwargs in variants:
            try:
                url = reverse(name, kwargs=kwargs)
            except Exception:  # noqa: BLE001 - the pattern refuses the value: its URL cannot be reached
                continue
            for full in ((url, url + ODD_QUERY) if kwargs is real else (url,)):
                if full not in seen:
                    seen.add(full)
                    yield name, full


def test_staff_get_no_server_error_for_odd_ids_and_query_values_anywhere(staff, world):
    _people, ids = world
    wrong = [f"{name} {url}: {status}" for name, url in odd_urls(ids) if (status := staff.get(url).status_code) >= 500]
    assert not wrong, "\n".join(wrong)
