"""Host rows found or created by name, and the host ids a process remembers."""
import pytest

from crawlweb.models import Host
from crawlweb.services import hosts

pytestmark = pytest.mark.django_db


def test_host_ids_are_found_or_created_and_remembered():
    existing = hosts.hosts_for({"www.primer.rs"})["www.primer.rs"]
    hosts.forget_host_ids()
    found = hosts.cached_host_ids({"www.primer.rs", "new.primer.rs"})
    created = Host.objects.select_related("site").get(name="new.primer.rs")
    assert found == {"www.primer.rs": existing.pk, "new.primer.rs": created.pk}
    assert created.site.name == "new.primer.rs"
    assert hosts._host_ids == found


def test_the_host_id_cache_stays_within_its_bound(monkeypatch):
    monkeypatch.setattr(hosts, "HOST_ID_CACHE_SIZE", 2)
    hosts.forget_host_ids()
    hosts.cached_host_ids({"a.primer.rs", "b.primer.rs"})
    hosts.cached_host_ids({"c.primer.rs"})
    assert set(hosts._host_ids) == {"c.primer.rs"}
    assert hosts.cached_host_ids({"a.primer.rs"}) == {"a.primer.rs": Host.objects.get(name="a.primer.rs").pk}
