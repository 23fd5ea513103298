#!/usr/bin/env python3
"""Checks a running `make demo` as a new user would: the dashboard answers, the demo admin logs in,
and the demo crawl finds bilingual sites, keeps and removes candidate pairs, and leaves an
evaluation ready to judge, all within a time bound. Standard library only, so it runs before
(and whatever) the project's virtualenv holds.

Usage: check_demo.py --url http://127.0.0.1:PORT --password PW [--timeout S] [--demo-pid PID]
Exit 0 when everything was seen; 1 with one line naming what was missing.
"""
from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


class DemoCheckFailed(Exception):
    pass


class Browser:
    """A cookie-keeping client that logs in through Django's admin login form like a person."""

    def __init__(self, base_url: str):
        self.base = base_url.rstrip("/")
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def get(self, path: str) -> tuple[int, str, str]:
        with self.opener.open(self.base + path, timeout=30) as response:
            return response.status, response.geturl(), response.read().decode("utf-8", "replace")

    def post(self, path: str, fields: dict) -> tuple[int, str, str]:
        request = urllib.request.Request(self.base + path, data=urllib.parse.urlencode(fields).encode(),
                                         headers={"Referer": self.base + path})
        with self.opener.open(request, timeout=30) as response:
            return response.status, response.geturl(), response.read().decode("utf-8", "replace")

    def csrf_token(self) -> str:
        for cookie in self.cookies:
            if cookie.name == "csrftoken":
                return cookie.value
        raise DemoCheckFailed("the login page set no csrftoken cookie")

    def log_in(self, username: str, password: str) -> None:
        self.get("/admin/login/?next=/")
        _, url, body = self.post("/admin/login/?next=/", {"username": username, "password": password,
                                                          "csrfmiddlewaretoken": self.csrf_token(), "next": "/"})
        if "/admin/login/" in url:
            raise DemoCheckFailed(f"logging in as {username} failed (the login form came back)")


def wait_for_server(browser: Browser, deadline: float, demo_pid: int | None) -> None:
    while time.monotonic() < deadline:
        if demo_pid is not None and not _alive(demo_pid):
            raise DemoCheckFailed("the demo process exited before its dashboard answered")
        try:
            browser.get("/admin/login/")
            return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(1)
    raise DemoCheckFailed("the dashboard did not answer in time")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def missing_in(summary: dict) -> list[str]:
    """What a new user should see on the crawl's page but does not yet."""
    wanted = [("bilingual sites", summary.get("bilingual_sites", 0) > 0),
              ("kept pairs", summary.get("pairs_kept", 0) > 0),
              ("removed pairs", summary.get("pairs_removed", 0) > 0),
              ("an evaluation to judge", any(e.get("items", 0) > 0 for e in summary.get("evaluations", [])))]
    return [name for name, seen in wanted if not seen]


def check(base_url: str, password: str, timeout: float, demo_pid: int | None = None) -> dict:
    started = time.monotonic()
    deadline = started + timeout
    browser = Browser(base_url)
    wait_for_server(browser, deadline, demo_pid)
    print(f"dashboard answers after {time.monotonic() - started:.0f} s", flush=True)
    browser.log_in("admin", password)
    _, _, index = browser.get("/")
    found = re.search(r'href="/crawls/(\d+)/"', index)
    if not found:
        raise DemoCheckFailed("the dashboard lists no crawl")
    crawl_id = int(found.group(1))
    summary, missing = {}, ["anything"]
    while time.monotonic() < deadline:
        summary = json.loads(browser.get(f"/crawls/{crawl_id}/summary.json")[2])
        missing = missing_in(summary)
        print(f"{time.monotonic() - started:5.0f} s  pages {summary['pages_fetched']}  state {summary['state']}  "
              f"bilingual sites {summary['bilingual_sites']}  pairs kept {summary['pairs_kept']} "
              f"removed {summary['pairs_removed']}  evaluations {len(summary['evaluations'])}", flush=True)
        if not missing:
            break
        time.sleep(5)
    if missing:
        raise DemoCheckFailed(f"after {timeout:.0f} s the demo crawl shows no {', no '.join(missing)}")
    page = browser.get(f"/crawls/{crawl_id}/")[2]
    if 'id="bilingual-sites"' not in page or "No site judged bilingual yet" in page:
        raise DemoCheckFailed("the crawl's page does not list its bilingual sites")
    evaluation = next(e for e in summary["evaluations"] if e["items"] > 0)
    status, _, judging = browser.get(f"/labeling/{evaluation['id']}/judge/")
    if status != 200 or "judge" not in judging.lower():
        raise DemoCheckFailed(f"the evaluation's judging page answered {status}")
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds for everything (default 300)")
    parser.add_argument("--demo-pid", type=int, default=None, help="fail at once if this process exits")
    args = parser.parse_args()
    try:
        summary = check(args.url, args.password, args.timeout, args.demo_pid)
    except (DemoCheckFailed, urllib.error.URLError, ValueError) as error:
        print(f"demo check failed: {error}", file=sys.stderr)
        return 1
    print(f"demo check passed: {summary['bilingual_sites']} bilingual sites, {summary['pairs_kept']} pairs kept, "
          f"{summary['pairs_removed']} removed, evaluation ready")
    return 0


if __name__ == "__main__":
    sys.exit(main())
