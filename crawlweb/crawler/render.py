"""Render a page in headless Chromium (Debian's, through Playwright) and return its DOM after the
scripts ran: a language switch built by script (a redirect by the browser's language, a switch
loaded from a fragment) exists only there.

Chromium never touches the network itself. Every request it makes goes through ``fetch`` (the
crawler's own Fetcher: its address policy, proxy settings, timeouts and size cap), and only when
``allowed(url)`` says so (the caller's rule: the page's own site, robots.txt); images, fonts, media
and style sheets are refused (no link is in them), and so is every request past ``max_requests``.
A dead proxy catches anything that would slip past the route (service workers are blocked too).
The browser is started on the first render and always closed (``close``, or leaving the ``with``).

Pure: no Django. Playwright is imported when a browser is started.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from .fetch import FetchResult

SKIPPED_RESOURCES = frozenset({"image", "media", "font", "stylesheet", "texttrack", "manifest", "beacon"})
CHROMIUM_ARGS = ("--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage")
DEAD_PROXY = "http://127.0.0.1:9"  # the discard port: a request that escapes the route fails at once
SETTLE_MS = 1500  # after the load event, how long scripts may still fetch and navigate


class RenderError(Exception):
    """The page could not be rendered (no browser, a timeout, a crash); the message says which."""


@dataclass
class RenderedPage:
    url: str
    final_url: str  # where the scripts left the browser
    html: str  # the DOM, serialized
    ms: float  # wall time of this render (the browser's start included for the first page)
    requests: int  # requests served to the page through the fetcher
    refused: int  # requests refused (other sites, assets, past the cap)


class PageRenderer:
    def __init__(self, executable: str, fetch: Callable[[str], FetchResult], allowed: Callable[[str], bool], *,
                 timeout_s: float = 10.0, max_requests: int = 20, user_agent: str = ""):
        if timeout_s <= 0 or max_requests < 1:
            raise ValueError(f"timeout_s must be > 0 and max_requests >= 1, got {timeout_s}, {max_requests}")
        self.executable, self.fetch, self.allowed = executable, fetch, allowed
        self.timeout_ms, self.max_requests, self.user_agent = timeout_s * 1000, max_requests, user_agent
        self._playwright = self._browser = None
        # Playwright's sync API runs an event loop in the thread that drives it, and Django refuses
        # database work in such a thread: the browser lives in a thread of its own.
        self._thread: ThreadPoolExecutor | None = None

    def __enter__(self) -> "PageRenderer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Close the browser and its driver; safe to call twice and after a failed start."""
        thread, self._thread = self._thread, None
        if thread is not None:
            try:
                thread.submit(self._close).result()
            finally:
                thread.shutdown(wait=True)

    def render(self, url: str) -> RenderedPage:
        """The page's DOM once its scripts ran (RenderError when it cannot be had)."""
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="render")
        return self._thread.submit(self._render, url).result()

    def _close(self) -> None:
        browser, playwright = self._browser, self._playwright
        self._browser = self._playwright = None
        try:
            if browser is not None:
                browser.close()
        finally:
            if playwright is not None:
                playwright.stop()

    def _start(self):
        if self._browser is None:
            try:
                from playwright.sync_api import sync_playwright
            except ImportError as error:
                raise RenderError(f"Playwright for Python is not installed: {error}") from error
            try:
                self._playwright = sync_playwright().start()
                self._browser = self._playwright.chromium.launch(
                    executable_path=self.executable, headless=True, args=list(CHROMIUM_ARGS),
                    proxy={"server": DEAD_PROXY})
            except Exception as error:
                self._close()
                raise RenderError(f"cannot start Chromium at {self.executable}: {error}") from error
        return self._browser

    def _render(self, url: str) -> RenderedPage:
        started = time.monotonic()
        browser = self._start()
        counts = {"requests": 0, "refused": 0}
        context = browser.new_context(service_workers="block", java_script_enabled=True,
                                      user_agent=self.user_agent or None)
        try:
            context.route("**/*", lambda route: self._serve(route, counts))
            page = context.new_page()
            page.set_default_timeout(self.timeout_ms)
            try:
                page.goto(url, wait_until="load", timeout=self.timeout_ms)
                self._settle(page)
                html = page.content()
            except Exception as error:
                raise RenderError(f"rendering {url} failed: {type(error).__name__}: {str(error)[:300]}") from error
            return RenderedPage(url, page.url, html, (time.monotonic() - started) * 1000,
                                counts["requests"], counts["refused"])
        finally:
            context.close()

    def _settle(self, page) -> None:
        """Let scripts finish: a redirect by script starts a new navigation, a fragment comes by fetch()."""
        try:
            page.wait_for_load_state("networkidle", timeout=SETTLE_MS)
        except Exception:  # still busy (a poll, a timer): the DOM as it is now
            pass
        page.wait_for_load_state("load")

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
