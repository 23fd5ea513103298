"""The embedded mode (no REDIS_URL) runs jobs in-process: django-rq's pages must not show, or let staff
empty, the queues of whatever Redis listens on 127.0.0.1:6379/0 (its fallback URL)."""
import pytest

pytestmark = pytest.mark.django_db
DJANGO_RQ_PAGES = ["/django-rq/", "/django-rq/queues/0/", "/django-rq/queues/0/empty/", "/django-rq/workers/0/",
                   "/admin/django_rq/dashboard/"]


@pytest.fixture
def staff(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root-rq", password="x-long-password-1")
    client.force_login(admin)
    return client


def test_without_redis_django_rqs_pages_answer_404(staff, settings):
    settings.REDIS_URL = None
    for url in DJANGO_RQ_PAGES:
        assert staff.get(url).status_code == 404, url
    assert staff.post("/django-rq/queues/0/empty/").status_code == 404, "nothing of someone else's emptied"


@pytest.mark.services
def test_with_redis_they_show_the_projects_queues(staff, settings):
    settings.REDIS_URL = settings.RQ_QUEUES["crawl"]["URL"]
    assert staff.get("/django-rq/").status_code == 200
    assert staff.get("/admin/django_rq/dashboard/").status_code == 200
