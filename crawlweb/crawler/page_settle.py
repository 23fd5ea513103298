"""When a rendered page is done: its scripts have stopped fetching and stopped changing the DOM.

A redirect by script starts a new navigation, a fragment arrives by fetch() and is written into the
page, a menu is built after the load event. A fixed wait is too long for most pages and too short
for some; instead the page is watched until, for ``QUIET_MS`` (counted from the load event at the
earliest), no request was in flight or started and the DOM did not change, or the caller's deadline
comes (a page that polls or animates forever is taken as it is then).

Pure: no Django. Works on a Playwright page from the thread that drives it.
"""
from __future__ import annotations

import time

QUIET_MS = 300  # a script's next step after a response or a timer of a few ms comes well within this
POLL_MS = 40
# Installed in every document before its own scripts: the time of the DOM's last change.
DOM_WATCH = """(() => {
  const mark = () => { window.__renderDomChangedAt = performance.now(); };
  mark();
  new MutationObserver(mark).observe(document, {subtree: true, childList: true, attributes: true,
                                                 characterData: true});
})();"""
DOM_QUIET_FOR = "() => performance.now() - (window.__renderDomChangedAt || 0)"


class NetworkWatch:
    """The page's requests in flight, and when the last one started or ended."""

    def __init__(self, page):
        self.in_flight: set = set()
        self.last_activity = time.monotonic()
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)

    def mark(self) -> None:
        """Count quiet from now: after the load event, its handlers' timers may still fetch."""
        self.last_activity = time.monotonic()

    def quiet_ms(self) -> float:
        """How long no request has been in flight (0 while one is)."""
        return 0.0 if self.in_flight else (time.monotonic() - self.last_activity) * 1000

    def _started(self, request) -> None:
        self.in_flight.add(request)
        self.last_activity = time.monotonic()

    def _ended(self, request) -> None:
        self.in_flight.discard(request)
        self.last_activity = time.monotonic()


def watch_dom(context) -> None:
    """Record DOM changes in every page the context opens (call before opening them)."""
    context.add_init_script(DOM_WATCH)


def dom_quiet_ms(page) -> float:
    """How long the page's DOM has not changed (0 while a navigation replaces the document)."""
    try:
        return float(page.evaluate(DOM_QUIET_FOR))
    except Exception:  # the document is being replaced: not quiet
        return 0.0


def settle(page, network: NetworkWatch, deadline: float, quiet_ms: float = QUIET_MS) -> float:
    """Wait until network and DOM have both been quiet for ``quiet_ms``, or until ``deadline``
    (time.monotonic()); returns the milliseconds waited."""
    started = time.monotonic()
    network.mark()
    while time.monotonic() < deadline:
        if network.quiet_ms() >= quiet_ms and dom_quiet_ms(page) >= quiet_ms:
            break
        # Playwright delivers the page's events (requests, the route's calls) while it waits here.
        page.wait_for_timeout(min(POLL_MS, max(1.0, (deadline - time.monotonic()) * 1000)))
    return (time.monotonic() - started) * 1000
