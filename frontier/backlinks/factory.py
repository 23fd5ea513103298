"""Backlink providers of a crawl, built from its config ``backlinks``:

    {"providers": [{"kind": "graph"}, {"kind": "edge_file", "path": "edges.tsv"},
                   {"kind": "http", "url_template": "http://backlinks.test/?url={url}"}],
     "rate": 5}

Every HTTP provider is wrapped in RateLimited around one TokenBucket shared by the crawl's HTTP
providers (in this process): ``rate`` is a remote service's quota. The crawl's own link graph and an
edge file are read here, from our database and disk, with nobody to be polite to: holding them to
5 calls a second kept a detector job asleep for a fifth of its time. ``collect_backlinks`` asks
them all and never raises: failures are returned as messages, so the crawl goes on without that
provider's answer.
"""
from __future__ import annotations

from django.conf import settings

from frontier.backlinks.base import (
    BacklinkProvider,
    RateLimited,
    TokenBucket,
    safe_backlinks,
)
from frontier.backlinks.edge_file import EdgeFileProvider
from frontier.backlinks.graph import CrawlGraphProvider
from frontier.backlinks.http_json import HttpJsonProvider
from frontier.discovery_settings import DiscoverySettings

_buckets: dict[int, TokenBucket] = {}
_edge_files: dict[str, EdgeFileProvider] = {}


class UnavailableProvider(BacklinkProvider):
    """A configured provider that could not be built (e.g. its edge file is missing)."""

    def __init__(self, name: str, reason: str):
        self.name, self.reason = name, reason

    def backlinks(self, url: str) -> list[str]:
        raise RuntimeError(self.reason)


def _build(spec: dict, crawl_id: int, address_policy: str) -> BacklinkProvider:
    kind = spec["kind"]
    if kind == "graph":
        return CrawlGraphProvider(crawl_id)
    if kind == "edge_file":
        path = spec["path"]
        try:
            if path not in _edge_files:  # a large edge file is read once per process
                _edge_files[path] = EdgeFileProvider(path)
        except OSError as error:
            return UnavailableProvider("edge-file", f"edge file unavailable: {error}")
        return _edge_files[path]
    if kind == "http":
        return HttpJsonProvider(spec.get("url_template", "http://backlinks.test/?url={url}"),
                                timeout=float(spec.get("timeout", 10.0)), address_policy=address_policy,
                                user_agent=settings.CRAWLER_USER_AGENT)
    raise ValueError(f"unknown backlink provider kind {kind!r}")


def providers_for(crawl, discovery: DiscoverySettings | None = None) -> list[BacklinkProvider]:
    discovery = discovery or DiscoverySettings.of(crawl)
    bucket = _buckets.get(crawl.pk)
    if bucket is None or bucket.rate != discovery.rate:
        bucket = _buckets[crawl.pk] = TokenBucket(discovery.rate, capacity=max(1.0, discovery.rate))
    # the crawl's own address policy: a backlink service is fetched as the crawl's pages are
    address_policy = (crawl.config or {}).get("address_policy") or settings.CRAWLER_ADDRESS_POLICY
    return [RateLimited(_build(spec, crawl.pk, address_policy), bucket) if spec["kind"] == "http"
            else _build(spec, crawl.pk, address_policy) for spec in discovery.providers]


def collect_backlinks(providers: list[BacklinkProvider], url: str) -> tuple[list[str], list[str]]:
    """(distinct backlink URLs in provider order, error messages of providers that failed)."""
    found, errors = [], []
    for provider in providers:
        links, error = safe_backlinks(provider, url)
        if error is not None:
            errors.append(f"{provider.name}: {error}")
        found += links
    return list(dict.fromkeys(found)), errors
