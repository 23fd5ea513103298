"""Find or create the Site and Host rows for host names, in bulk (one crawl step adds many)."""
from __future__ import annotations

from django.db import IntegrityError, transaction

from crawlweb.crawler.urls import registrable_domain, site_name
from crawlweb.models import Host, Site

# Host ids by name, per process: nearly every host a batch links to was seen by an earlier batch, so
# its SELECT would only read back what this process already knows. Cleared when it outgrows the limit.
HOST_ID_CACHE_SIZE = 100_000
_host_ids: dict[str, int] = {}


def hosts_for(names: set[str]) -> dict[str, Host]:
    """Host rows by name, creating missing Sites and Hosts; safe when workers race."""
    found = {h.name: h for h in Host.objects.filter(name__in=names).select_related("site")}
    missing = names - found.keys()
    if missing:
        site_names = {name: site_name(name) for name in missing}
        sites = _sites_for(set(site_names.values()))
        Host.objects.bulk_create(
            [Host(name=name, site=sites[site_names[name]]) for name in missing], ignore_conflicts=True)
        found.update({h.name: h for h in Host.objects.filter(name__in=missing).select_related("site")})
    return found


def cached_host_ids(names: set[str]) -> dict[str, int]:
    """Host ids by name, from this process's cache when it knows them, else found or created.

    A cached id can be stale: its row deleted since (the admin, ``cleandb``, a test's flush) or
    written by a transaction that rolled back. A caller must check the rows it uses and, when one
    is gone, call ``forget_host_ids`` and ask again (see bulk_rows.insert_targets)."""
    remembered = {name: _host_ids.get(name) for name in names}  # .get: another thread may clear it meanwhile
    found = {name: host_id for name, host_id in remembered.items() if host_id is not None}
    missing = names - found.keys()
    if missing:
        looked_up = dict(Host.objects.filter(name__in=missing).values_list("name", "pk"))
        if len(looked_up) < len(missing):
            looked_up.update((name, host.pk) for name, host in hosts_for(missing - looked_up.keys()).items())
        if len(_host_ids) + len(looked_up) > HOST_ID_CACHE_SIZE:
            _host_ids.clear()
        _host_ids.update(looked_up)
        found.update(looked_up)
    return found


def forget_host_ids() -> None:
    _host_ids.clear()


def _sites_for(names: set[str]) -> dict[str, Site]:
    Site.objects.bulk_create(
        [Site(name=name, registrable_domain=registrable_domain(name)) for name in names], ignore_conflicts=True)
    return {s.name: s for s in Site.objects.filter(name__in=names)}


def host_for(name: str) -> Host:
    try:
        with transaction.atomic():
            return hosts_for({name})[name]
    except IntegrityError:  # another worker created it between our read and write
        return Host.objects.select_related("site").get(name=name)
