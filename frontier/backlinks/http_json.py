"""Backlinks from an HTTP service answering JSON ``{"backlinks": ["http://...", ...]}``.

Uses a requests Session, which honours the proxy environment variables (HTTP_PROXY, HTTPS_PROXY,
NO_PROXY) like every other fetch of the crawler. Failures become ProviderError: timeouts,
connection errors, 429 and 5xx are transient; other statuses and malformed answers are not.
"""
from __future__ import annotations

from urllib.parse import quote

import requests

from frontier.backlinks.base import BacklinkProvider, ProviderError


class HttpJsonProvider(BacklinkProvider):
    name = "http-json"

    def __init__(
        self,
        url_template: str = "http://backlinks.test/?url={url}",
        timeout: float = 10.0,
        session: requests.Session | None = None,
        max_results: int = 1000,
    ):
        if "{url}" not in url_template:
            raise ValueError(f"url_template must contain '{{url}}', got {url_template!r}")
        if timeout <= 0:
            raise ValueError(f"timeout must be > 0 seconds, got {timeout}")
        self.url_template = url_template
        self.timeout = timeout
        self.session = session or requests.Session()
        self.max_results = max_results

    def backlinks(self, url: str) -> list[str]:
        request_url = self.url_template.format(url=quote(url, safe=""))
        try:
            response = self.session.get(request_url, timeout=self.timeout, headers={"Accept": "application/json"})
        except requests.Timeout as exc:
            raise ProviderError(f"backlink service timed out after {self.timeout}s: {request_url}", transient=True) from exc
        except requests.RequestException as exc:
            raise ProviderError(f"backlink service unreachable: {request_url}: {exc}", transient=True) from exc
        if response.status_code != 200:
            transient = response.status_code == 429 or response.status_code >= 500
            raise ProviderError(f"backlink service answered HTTP {response.status_code} for {request_url}", transient=transient)
        try:
            payload = response.json()
        except ValueError as exc:
            raise ProviderError(f"backlink service sent invalid JSON for {request_url}", transient=False) from exc
        links = payload.get("backlinks") if isinstance(payload, dict) else None
        if not isinstance(links, list) or not all(isinstance(u, str) for u in links):
            raise ProviderError(
                f"backlink service answer lacks a 'backlinks' list of URL strings: {str(payload)[:200]}", transient=False
            )
        return links[: self.max_results]
