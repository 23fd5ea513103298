"""One headless Chromium per process, kept from one render to the next and driven by one thread.

Starting Chromium and Playwright's driver costs seconds, and a detector job renders a page or two:
the browser is started on the first task and kept for the jobs that follow. Playwright's sync API
belongs to the thread that started it (and Django refuses database work in a thread running an
event loop), so every use of the browser is a task run by this host's own thread, one at a time,
whichever thread asked; a task gets the browser and opens a context of its own in it.

The browser is replaced when it crashed or lost its connection (found by the task that failed on
it, which is tried once more on the new browser), and after ``pages_per_browser`` tasks (a
browser's memory grows with the pages it served). The thread closes the browser and ends after
``idle_s`` without a task, and at process exit. A forked child starts its own browser when it needs
one: the parent's thread and browser are not copied into it.

Pure: no Django. Playwright is imported when a browser is started.
"""
from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")

CHROMIUM_ARGS = ("--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage")
CLOSE_WAIT_S = 15.0  # how long closing waits for the task in progress and the browser's exit


class BrowserUnavailable(Exception):
    """No browser could be had (not installed, failed to start, its thread did not answer)."""


class BrowserHost:
    """Runs ``task(browser)`` in its thread, on a Chromium it starts when first needed and keeps."""

    def __init__(self, executable: str, *, pages_per_browser: int = 100, idle_s: float = 300.0,
                 proxy: str | None = None, args: tuple[str, ...] = CHROMIUM_ARGS):
        if pages_per_browser < 1 or idle_s <= 0:
            raise ValueError(f"pages_per_browser must be >= 1 and idle_s > 0, got {pages_per_browser}, {idle_s}")
        self.executable, self.pages_per_browser, self.idle_s = executable, pages_per_browser, idle_s
        self.proxy, self.args = proxy, args
        self.starts = 0  # browsers started by this host so far
        self._lock = threading.Lock()
        self._tasks: queue.Queue | None = None  # the running thread's queue; None: no thread
        self._thread: threading.Thread | None = None
        _hosts.add(self)

    def run(self, task: Callable[[object], T], wait_s: float | None = None) -> T:
        """``task(browser)``'s result (or its exception), run in the host's thread."""
        future: Future = Future()
        with self._lock:
            if self._tasks is None:
                self._tasks = queue.Queue()
                self._thread = threading.Thread(target=self._serve, args=(self._tasks,), name="browser-host",
                                                daemon=True)
                self._thread.start()
            self._tasks.put((task, future))
        try:
            return future.result(timeout=wait_s)
        except FutureTimeout:
            future.cancel()
            raise BrowserUnavailable(f"the browser's thread gave no answer in {wait_s:.0f} s") from None

    def close(self, wait_s: float = CLOSE_WAIT_S) -> None:
        """Close the browser and end the thread (the next task starts them again); safe to call twice."""
        with self._lock:
            tasks, thread, self._tasks, self._thread = self._tasks, self._thread, None, None
        if tasks is not None:
            tasks.put(None)
        if thread is not None and thread is not threading.current_thread():
            thread.join(wait_s)

    def _forget_after_fork(self) -> None:
        # The child has neither the thread nor a browser of its own; the parent's stay the parent's.
        self._lock = threading.Lock()
        self._tasks = self._thread = None
        self.starts = 0

    def _serve(self, tasks: queue.Queue) -> None:
        browser = _Browser(self)
        try:
            while True:
                try:
                    item = tasks.get(timeout=self.idle_s)
                except queue.Empty:
                    with self._lock:  # run() puts under this lock: an empty queue now stays empty
                        if tasks.empty() and self._tasks is tasks:
                            self._tasks = self._thread = None
                            if browser.browser is not None:
                                log.info("closing Chromium after %.0f s without a page to render", self.idle_s)
                            return
                    continue
                if item is None:
                    return
                task, future = item
                if future.set_running_or_notify_cancel():
                    try:
                        future.set_result(browser.run(task))
                    except BaseException as error:  # the caller gets it, the thread goes on
                        future.set_exception(error)
        finally:
            browser.stop()


class _Browser:
    """The host thread's Playwright driver and Chromium: started lazily, replaced when dead or worn."""

    def __init__(self, host: BrowserHost):
        self.host = host
        self.playwright = self.browser = None
        self.tasks_run = 0

    def run(self, task: Callable[[object], T]) -> T:
        browser = self.ready()
        self.tasks_run += 1  # failed pages too: they cost the browser memory as well
        try:
            return task(browser)
        except Exception:
            if self.answers(browser):
                raise  # the page's failure: the browser is fine
            log.warning("Chromium or Playwright's driver crashed or lost its connection; starting new ones")
            self.stop()
            browser = self.ready()
            self.tasks_run += 1
            return task(browser)  # once more: the failure was the browser's, not the page's

    @staticmethod
    def answers(browser) -> bool:
        """Whether the browser and the driver between us still answer (a round trip through both)."""
        if not browser.is_connected():
            return False
        try:
            browser.new_context().close()
        except Exception:
            return False
        return True

    def ready(self):
        if self.browser is not None and not self.browser.is_connected():
            log.warning("Chromium is gone (crashed or disconnected); starting a new one")
            self.stop()
        elif self.browser is not None and self.tasks_run >= self.host.pages_per_browser:
            log.info("restarting Chromium after %d pages (its memory grows with each)", self.tasks_run)
            self.stop()
        if self.browser is None:
            self.start()
        return self.browser

    def start(self) -> None:
        try:
            from playwright.sync_api import sync_playwright
        except ImportError as error:
            raise BrowserUnavailable(f"Playwright for Python is not installed: {error}") from error
        started = time.monotonic()
        try:
            self.playwright = sync_playwright().start()
            self.browser = self.playwright.chromium.launch(
                executable_path=self.host.executable, headless=True, args=list(self.host.args),
                proxy={"server": self.host.proxy} if self.host.proxy else None)
        except Exception as error:
            self.stop()
            raise BrowserUnavailable(f"cannot start Chromium at {self.host.executable}: {error}") from error
        self.tasks_run = 0
        self.host.starts += 1
        log.info("started Chromium %s in %.0f ms (browser %d of process %d)", self.host.executable,
                 (time.monotonic() - started) * 1000, self.host.starts, os.getpid())

    def stop(self) -> None:
        browser, playwright, self.browser, self.playwright = self.browser, self.playwright, None, None
        try:
            if browser is not None:
                browser.close()
        except Exception as error:  # already dead: nothing left to close
            log.debug("closing Chromium: %s", error)
        finally:
            if playwright is not None:
                try:
                    playwright.stop()
                except Exception as error:
                    log.debug("stopping Playwright's driver: %s", error)


# Every host of the process: closed at exit, forgotten in a forked child.
_hosts: weakref.WeakSet[BrowserHost] = weakref.WeakSet()
_shared: BrowserHost | None = None
_shared_lock = threading.Lock()


def shared_host(executable: str, *, pages_per_browser: int, idle_s: float, proxy: str | None = None) -> BrowserHost:
    """The process's host for ``executable`` (one browser per process, whichever thread renders);
    a different executable or limits replace it."""
    global _shared
    with _shared_lock:
        wanted = (executable, pages_per_browser, idle_s, proxy)
        if _shared is not None and (_shared.executable, _shared.pages_per_browser, _shared.idle_s,
                                    _shared.proxy) != wanted:
            _shared.close()
            _shared = None
        if _shared is None:
            _shared = BrowserHost(executable, pages_per_browser=pages_per_browser, idle_s=idle_s, proxy=proxy)
        return _shared


def close_all_hosts() -> None:
    """Close every browser this process started (at exit; tests that count browsers call it too)."""
    for host in list(_hosts):
        host.close()


def _forget_hosts_in_child() -> None:
    global _shared_lock
    _shared_lock = threading.Lock()
    for host in list(_hosts):
        host._forget_after_fork()


atexit.register(close_all_hosts)
os.register_at_fork(after_in_child=_forget_hosts_in_child)
