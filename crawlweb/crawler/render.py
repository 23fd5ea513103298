"""Render a page in headless Chromium (Debian's, through Playwright) and return its DOM after the
scripts ran: a language switch built by script (a redirect by the browser's language, a switch
loaded from a fragment) exists only there.

Chromium never touches the network itself. Every request it makes goes through ``fetch`` (the
crawler's own Fetcher: its address policy, proxy settings, timeouts and size cap), and only when
``allowed(url)`` says so (the caller's rule: the page's own site, robots.txt); images, fonts, media
and style sheets are refused (no link is in them), and so is every request past ``max_requests``.
A dead proxy catches anything that would slip past the route (service workers are blocked too).

The browser belongs to a BrowserHost (crawlweb.crawler.browser_host): the process's shared one,
kept between renders, or one of the renderer's own, closed with it. Each page gets a browser context
of its own, so pages share no cookies, storage or cache. The page is taken once its requests and its
DOM have been quiet for a moment (page_settle), all within ``timeout_s``.

Pure: no Django. Playwright is imported when a browser is started.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .browser_host import BrowserHost, BrowserUnavailable
from .fetch import FetchResult
from .page_settle import NetworkWatch, settle, watch_dom

SKIPPED_RESOURCES = frozenset({"image", "media", "font", "stylesheet", "texttrack", "manifest", "beacon"})
DEAD_PROXY = "http://127.0.0.1:9"  # the discard port: a request that escapes the route fails at once
START_ALLOWANCE_S = 60.0  # beyond the page's own time, how long a caller waits for a browser to start


class RenderError(Exception):
    """The page could not be rendered (no browser, a timeout, a crash); the message says which."""


@dataclass
class RenderedPage:
    url: str
    final_url: str  # where the scripts left the browser
    html: str  # the DOM, serialized
    ms: float  # wall time of this render, waiting for the browser (its start, other renders) included
    requests: int  # requests served to the page through the fetcher
    refused: int  # requests refused (other sites, assets, past the cap)
    settle_ms: float = 0.0  # of ``ms``, the wait for scripts to finish after the load event


def private_host(executable: str) -> BrowserHost:
    """A host of the renderer's own (closed with it), behind the dead proxy."""
    return BrowserHost(executable, proxy=DEAD_PROXY)


class PageRenderer:
    def __init__(self, executable: str, fetch: Callable[[str], FetchResult], allowed: Callable[[str], bool], *,
                 timeout_s: float = 10.0, max_requests: int = 20, user_agent: str = "",
                 host: BrowserHost | None = None):
        if timeout_s <= 0 or max_requests < 1:
            raise ValueError(f"timeout_s must be > 0 and max_requests >= 1, got {timeout_s}, {max_requests}")
        if host is not None and host.proxy != DEAD_PROXY:
            raise ValueError(f"a render's browser must sit behind the dead proxy {DEAD_PROXY}, not {host.proxy!r}")
        self.executable, self.fetch, self.allowed = executable, fetch, allowed
        self.timeout_s, self.max_requests, self.user_agent = timeout_s, max_requests, user_agent
        self._own_host = host is None
        self.host = host or private_host(executable)

    def __enter__(self) -> "PageRenderer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Close the browser if it is the renderer's own; a shared host keeps its browser."""
        if self._own_host:
            self.host.close()

    def render(self, url: str) -> RenderedPage:
        """The page's DOM once its scripts ran (RenderError when it cannot be had)."""
        started = time.monotonic()
        try:
            page = self.host.run(lambda browser: self._render(browser, url),
                                 wait_s=self.timeout_s + START_ALLOWANCE_S)
        except BrowserUnavailable as error:
            raise RenderError(str(error)) from error
        except RenderError:
            raise
        except Exception as error:  # the browser failed around the page (its context, twice): the page's failure
            raise RenderError(f"rendering {url} failed: {type(error).__name__}: {str(error)[:300]}") from error
        page.ms = (time.monotonic() - started) * 1000
        return page

    def _render(self, browser, url: str) -> RenderedPage:
        deadline = time.monotonic() + self.timeout_s
        counts = {"requests": 0, "refused": 0}
        context = browser.new_context(service_workers="block", java_script_enabled=True,
                                      user_agent=self.user_agent or None)
        try:
            context.route("**/*", lambda route: self._serve(route, counts))
            watch_dom(context)
            page = context.new_page()
            page.set_default_timeout(self.timeout_s * 1000)
            network = NetworkWatch(page)
            try:
                page.goto(url, wait_until="load", timeout=self.timeout_s * 1000)
                settle_ms = settle(page, network, deadline)
                html = page.content()
            except Exception as error:
                raise RenderError(f"rendering {url} failed: {type(error).__name__}: {str(error)[:300]}") from error
            return RenderedPage(url, page.url, html, 0.0, counts["requests"], counts["refused"], settle_ms)
        finally:
            try:
                context.close()
            except Exception:  # the browser died under the page: the host replaces it
                pass

    def _serve(self, route, counts: dict) -> None:
        request = route.request
        url = request.url
        if (request.resource_type in SKIPPED_RESOURCES or not url.startswith(("http://", "https://"))
                or request.method not in ("GET", "HEAD") or counts["requests"] >= self.max_requests
                or not self.allowed(url)):
            counts["refused"] += 1
            route.abort("blockedbyclient")
            return
        counts["requests"] += 1
        result = self.fetch(url)
        if result.status is None:
            route.abort("failed")
            return
        if result.redirects and result.final_url != url:
            # The fetcher followed them; the browser must know where it landed, so relative links resolve there.
            route.fulfill(status=302, headers={"location": result.final_url}, body="")
            return
        headers = {"content-type": result.headers.get("content-type", "application/octet-stream")}
        route.fulfill(status=result.status, headers=headers, body=result.body)
