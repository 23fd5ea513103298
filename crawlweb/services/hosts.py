"""Find or create the Site and Host rows for host names, in bulk (one crawl step adds many)."""
from __future__ import annotations

from django.db import IntegrityError, transaction

from crawlweb.crawler.urls import registrable_domain, site_name
from crawlweb.models import Host, Site


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
