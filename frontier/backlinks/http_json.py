"""Backlinks from an HTTP service answering JSON ``{"backlinks": ["http://...", ...]}``.

The service is asked through the crawler's own Fetcher, as any page is: the proxy environment variables
(HTTP_PROXY, HTTPS_PROXY, NO_PROXY), the crawl's address policy checked at every redirect hop (no
private or loopback address unless the policy allows it), timeouts and a cap on the answer's size.
Failures become ProviderError: timeouts, connection errors, 429 and 5xx are transient; a refused
address, other statuses and malformed answers are not. The answer's body is never copied into an
error: a service that echoes what it was sent, or an internal page a redirect led to, stays unseen.
"""
from __future__ import annotations

import json
from urllib.parse import quote

from crawlweb.crawler.fetch import TIMEOUT, TOO_LARGE, Fetcher, is_transient
from frontier.backlinks.base import BacklinkProvider, ProviderError

MAX_ANSWER_BYTES = 2 * 1024 * 1024  # a thousand URLs of 2,000 characters
USER_AGENT = "BilingualCrawler/0.1 (backlink lookups)"


class HttpJsonProvider(BacklinkProvider):
    name = "http-json"

    def __init__(
        self,
        url_template: str = "http://backlinks.test/?url={url}",
        timeout: float = 10.0,
        max_results: int = 1000,
        *,
        address_policy: str = "public",
        user_agent: str = USER_AGENT,
    ):
        if "{url}" not in url_template:
            raise ValueError(f"url_template must contain '{{url}}', got {url_template!r}")
        if timeout <= 0:
            raise ValueError(f"timeout must be > 0 seconds, got {timeout}")
        self.url_template = url_template
        self.timeout = timeout
        self.max_results = max_results
        # the whole answer within three timeouts: a service trickling bytes cannot hold a detector job
        self.fetcher = Fetcher(user_agent, connect_timeout=timeout, read_timeout=timeout, total_timeout=3 * timeout,
                               max_bytes=MAX_ANSWER_BYTES, address_policy=address_policy, pool_size=4)
        self.fetcher.session.headers["Accept"] = "application/json"

    def backlinks(self, url: str) -> list[str]:
        request_url = self.url_template.format(url=quote(url, safe=""))
        result = self.fetcher.fetch(request_url)
        if result.error_kind == TIMEOUT:
            raise ProviderError(f"backlink service timed out after {self.timeout}s: {request_url}", transient=True)
        if result.error_kind == TOO_LARGE:
            raise ProviderError(f"backlink service answer larger than {MAX_ANSWER_BYTES} bytes: {request_url}",
                                transient=False)
        if result.status is None or (result.error_kind is not None and result.status < 400):
            # refused address, DNS, connection, a redirect loop: the Fetcher's own words, no body in them
            raise ProviderError(f"backlink service unreachable: {request_url}: {result.error}",
                                transient=is_transient(result.error_kind))
        if result.status != 200:
            transient = result.status == 429 or result.status >= 500
            raise ProviderError(f"backlink service answered HTTP {result.status} for {request_url}", transient=transient)
        try:
            payload = json.loads(result.body)
        except ValueError as exc:
            raise ProviderError(f"backlink service sent invalid JSON for {request_url}", transient=False) from exc
        links = payload.get("backlinks") if isinstance(payload, dict) else None
        if not isinstance(links, list) or not all(isinstance(u, str) for u in links):
            raise ProviderError(f"backlink service answer lacks a 'backlinks' list of URL strings: {request_url}",
                                transient=False)
        return links[: self.max_results]
