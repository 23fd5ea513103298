"""The admin's crawl filters (console/admin_filters.py): the sites a crawl has seen, the hosts with work
left in it, as the dashboard counts them."""
import pytest
from django.utils import timezone

from crawlweb.models import Crawl, Page, Site
from frontier.models import Target

pytestmark = pytest.mark.django_db


def _listed(admin_client, path: str) -> str:
    response = admin_client.get(path)
    assert response.status_code == 200
    return response.content.decode()


def test_sites_seen_by_a_crawl_and_hosts_with_work_left_in_it(admin_client):
    seen_crawl, other_crawl = Crawl.objects.create(name="seen"), Crawl.objects.create(name="other")
    seen, unseen = Site.objects.create(name="vidjeno.rs"), Site.objects.create(name="nevidjeno.rs")
    seen_host, unseen_host = seen.hosts.create(name="www.vidjeno.rs"), unseen.hosts.create(name="www.nevidjeno.rs")
    Page.objects.create(crawl=seen_crawl, site=seen, host=seen_host, url="http://www.vidjeno.rs/",
                        final_url="http://www.vidjeno.rs/", status_code=200, md5="a", fetched_at=timezone.now())
    Target.objects.create(crawl=seen_crawl, url="http://www.nevidjeno.rs/", host=unseen_host, site=unseen,
                          state=Target.State.PENDING)
    Target.objects.create(crawl=other_crawl, url="http://www.vidjeno.rs/o-nama", host=seen_host, site=seen,
                          state=Target.State.PENDING)

    sites = _listed(admin_client, f"/admin/crawlweb/site/?crawl={seen_crawl.pk}")
    assert "vidjeno.rs" in sites.replace("nevidjeno.rs", "") and "nevidjeno.rs" not in sites
    hosts = _listed(admin_client, f"/admin/crawlweb/host/?crawl={seen_crawl.pk}")
    assert "www.nevidjeno.rs" in hosts and "www.vidjeno.rs" not in hosts.replace("www.nevidjeno.rs", "")
    everything = _listed(admin_client, "/admin/crawlweb/site/")
    assert "nevidjeno.rs" in everything and "vidjeno.rs" in everything.replace("nevidjeno.rs", "")
    assert "nevidjeno.rs" in _listed(admin_client, "/admin/crawlweb/site/?crawl=not-a-number"), "a bad id filters nothing"
