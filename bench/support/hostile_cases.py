"""Hostile cases against real processes, for bench/hardening.py: ``run(quick) -> dict``.

1. A test-web server (with the hostile site www.napad.rs, crawlweb/testweb/hostile.py) and a canary
   HTTP server, both on 127.0.0.1, run in this process.
2. A child process (this file with ``--child``) gets a temporary SQLite database of its own (VAR_DIR
   in a temporary directory, DATABASE_URL empty; the default database is never touched), migrates it,
   and crawls the hostile site with ``crawl start`` (jobs synchronous, through the test web as
   HTTP_PROXY, loopback exempt so that loopback links go direct and meet the address policy).
   It reports every Target's end, and its own peak RSS (with its children's).
3. The same child then tries the bad inputs of an operator through the real entry points: the
   dashboard's New crawl form and the admin (Django's test client), ``crawl start`` (call_command),
   seed files (admin import and command), and the probe URLs of Issue 18. Each counts when it is
   answered with a clear error, no 500, and nothing created.

Figures: bad_inputs (answered well), lost (seeded or case Targets ending neither fetched nor with a
named error kind), xss_executed (scripts run: the child also crawls the test web's page pair full of
script-injection attempts, renders every view that shows crawled text as an admin with Django's test client,
and loads each answer into Debian's Chromium with every request blocked: each payload sets
``window.__injected`` and calls ``alert()``; a view where either happens counts; each case says whether
the payloads were on screen as text), ssrf (requests that reached the
canary on loopback), peak_rss_mb (the crawl process, measured before the browser starts).

    .venv/bin/python bench/support/hostile_cases.py [--quick]   # prints the dict as JSON
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.support.process_memory import largest_peak_rss_mb  # noqa: E402

CHILD_TIMEOUT_S = 300


class _Canary(ThreadingHTTPServer):
    """A loopback server no crawler may reach: every request it receives is an SSRF leak."""

    daemon_threads = True

    def __init__(self):
        self.hits: list[str] = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(handler):  # noqa: N805 - the handler's own self
                self.hits.append(handler.path)
                handler.send_response(200)
                handler.send_header("Content-Length", "6")
                handler.end_headers()
                handler.wfile.write(b"secret")

            do_HEAD = do_POST = do_GET

            def log_message(handler, *args):  # noqa: N805
                pass

        super().__init__(("127.0.0.1", 0), Handler)


def run(quick: bool) -> dict:
    from crawlweb.testweb.generator import generate_web
    from crawlweb.testweb.hostile import gzip_bomb
    from crawlweb.testweb.server import TestWebServer

    gzip_bomb()  # built before the crawl's deadlines run
    canary = _Canary()
    threading.Thread(target=canary.serve_forever, daemon=True).start()
    try:
        web_pages = generate_web(seed=3, size=8, pages_per_site=4, judging_cases=True)
        truth = web_pages.truth()
        case_site = next(s for s in truth["sites"] if s["host"] == truth["judging_cases"]["site"])
        with TestWebServer(web_pages) as web, \
                tempfile.TemporaryDirectory(prefix="hostile-bench-") as var_dir:
            env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
            env.update(DATABASE_URL="", VAR_DIR=var_dir, JOBS_INPROCESS_MODE="sync",
                       HTTP_PROXY=web.proxy_url, http_proxy=web.proxy_url,
                       NO_PROXY="127.0.0.1,localhost,::1", no_proxy="127.0.0.1,localhost,::1",
                       CRAWLER_HOST_INTERVAL="0", CRAWLER_READ_TIMEOUT="2", CRAWLER_TOTAL_TIMEOUT="3",
                       CRAWLER_IDLE_FINISH_SECONDS="1", CRAWLER_RETRY_BACKOFF="0.5", CRAWLER_MAX_ATTEMPTS="1",
                       CRAWLER_WARC="0", PYTHONPATH=str(ROOT),
                       HOSTILE_INJECTION_SITE=json.dumps({"hosts": case_site["hosts"],
                                                          "homes": list(case_site["home_urls"].values()),
                                                          "pair": truth["judging_cases"]["injection_pair"]}))
            if quick:  # a smaller page cap parses the million links sooner; full mode keeps the default
                env["CRAWLER_MAX_PAGE_BYTES"] = str(4 * 1024 * 1024)
            args = [sys.executable, __file__, "--child", str(canary.server_address[1])] + (["--quick"] if quick else [])
            done = subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True, timeout=CHILD_TIMEOUT_S)
            if done.returncode != 0:
                raise RuntimeError(f"the hostile crawl process failed ({done.returncode}): {done.stderr[-2000:]}")
            report = json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        canary.shutdown()
        canary.server_close()
    ssrf = len(canary.hits)
    cases = report["cases"] + [{"name": "ssrf: loopback canary never reached", "ok": ssrf == 0,
                                "detail": f"{ssrf} requests reached it; {report['refused']} Targets refused"}]
    return {"bad_inputs": sum(1 for c in cases if c["ok"] and c["name"].startswith("input:")),
            "lost": report["lost"], "xss_executed": report["xss_executed"], "ssrf": ssrf, "peak_rss_mb": report["peak_rss_mb"],
            "cases": cases}


# --- the child: a crawl and the bad inputs, on a database of its own ------------------------------------


def _child(canary_port: int, quick: bool) -> dict:
    os.environ["DJANGO_SETTINGS_MODULE"] = "crawlweb.settings"
    import logging

    import django

    django.setup()
    logging.disable(logging.CRITICAL)
    from django.conf import settings
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's responses carry their template context
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]

    call_command("migrate", verbosity=0)
    cases, lost, refused = _hostile_crawl(canary_port, quick)
    peak_mb = largest_peak_rss_mb(os.getpid())  # the crawl's peak, before the browser part starts
    cases += _bad_inputs(quick)
    xss_cases = _injection_views_in_a_browser(json.loads(os.environ["HOSTILE_INJECTION_SITE"]))
    cases += xss_cases
    return {"cases": cases, "lost": lost, "refused": refused, "peak_rss_mb": round(peak_mb, 1),
            "xss_executed": sum(1 for c in xss_cases if not c["ok"])}


# What each hostile case's Target must end as: fetched ("done") or one of these named error kinds.
EXPECTED = {"never_ending": {"too_large"}, "slow_loris": {"timeout"}, "gzip_bomb": {"too_large"},
            "deep_nesting": {""}, "million_links": {"too_large", ""}, "long_urls": {""},
            "other_schemes": {""}, "homographs": {""}, "session_paths": {""}, "query_permutations": {""}}


def _hostile_crawl(canary_port: int, quick: bool) -> tuple[list[dict], int, int]:
    from crawlweb.crawler.urls import normalize_url
    from crawlweb.models import Crawl
    from crawlweb.testweb.hostile import (HOSTILE_HOST, HOSTILE_PATHS, ROBOTS_BINARY_HOST, ROBOTS_HUGE_HOST,
                                          internal_targets)
    from frontier.models import Target

    starts = [f"http://{HOSTILE_HOST}/", f"http://{HOSTILE_HOST}/interno.html?port={canary_port}",
              f"http://{ROBOTS_HUGE_HOST}/", f"http://{ROBOTS_BINARY_HOST}/"]
    flags = [x for url in starts for x in ("--url", url)]
    started = time.monotonic()
    _call("crawl", "start", "--name", "hostile", "--budget", "25" if quick else "100", "--host-interval", "0",
          "--parallel-steps", "1", "--no-wait", *flags)
    crawl = Crawl.objects.get(name="hostile")
    elapsed = time.monotonic() - started
    targets = {t.url: t for t in Target.objects.filter(crawl=crawl)}
    cases, lost = [], 0

    def named(target) -> bool:
        return target is not None and (target.state == Target.State.DONE or bool(target.error_kind))

    for url in starts:
        target = targets.get(normalize_url(url))
        if not named(target):
            lost += 1
        cases.append({"name": f"crawl: start {url[:60]}", "ok": named(target),
                      "detail": _end(target)})
    for name, path in HOSTILE_PATHS.items():
        target = targets.get(normalize_url(f"http://{HOSTILE_HOST}{path}"))
        ok = target is not None and target.error_kind in EXPECTED[name] and (
            target.error_kind or target.state == Target.State.DONE)
        if not named(target):
            lost += 1
        cases.append({"name": f"hostile web: {name}", "ok": ok, "detail": _end(target)})
    internal = {normalize_url(u) for u in internal_targets(canary_port) if _normalizable(u)}
    reached = [t for u, t in targets.items() if u in internal]
    refused = sum(1 for t in reached if t.error_kind)
    cases.append({"name": "crawl: internal addresses refused with a named kind", "ok": refused == len(reached) > 0,
                  "detail": f"{refused} of {len(reached)} internal Targets refused "
                            f"({', '.join(sorted({t.error_kind for t in reached}))})"})
    cases.append({"name": "crawl: finished", "ok": crawl.state == Crawl.State.FINISHED,
                  "detail": f"{crawl.state} after {elapsed:.1f} s, {crawl.pages_fetched} pages, "
                            f"{len(targets)} Targets; last error {crawl.last_error[:80]!r}"})
    return cases, lost, refused


def _normalizable(url: str) -> bool:
    from crawlweb.crawler.urls import InvalidURL, normalize_url
    try:
        normalize_url(url)
        return True
    except InvalidURL:
        return False


def _end(target) -> str:
    if target is None:
        return "no Target"
    return f"{target.state} {target.error_kind or ''} {target.last_error[:80]}".strip()


def _call(*args) -> str:
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command(*args, stdout=out, stderr=out)
    return out.getvalue()


# Bad values an operator may give, as (form field, its value, the command's flags): each must be refused.
BAD_SETTINGS = [
    ("page_budget", "-5", ["--budget", "-5"]), ("page_budget", "0", ["--budget", "0"]),
    ("page_budget", "99999999999999999999999", ["--budget", "99999999999999999999999"]),
    ("page_budget", "ten", ["--budget", "ten"]), ("parallel_steps", "-1", ["--parallel-steps", "-1"]),
    ("host_interval", "nan", ["--host-interval", "nan"]), ("host_interval", "inf", ["--host-interval", "inf"]),
    ("host_interval", "-1", ["--host-interval", "-1"]), ("time_limit", "0", ["--time-limit", "0"]),
    ("address_policy", "anywhere", ["--address-policy", "anywhere"]),
    ("start_urls", "javascript:alert(1)", ["--url", "javascript:alert(1)"]),
    ("start_urls", "ftp://x.rs/", ["--url", "ftp://x.rs/"]),
    ("start_urls", "http://" + "a" * 3000 + ".rs/", ["--url", "http://" + "a" * 3000 + ".rs/"]),
    ("url_rules", "exclude URL:(a+)+$", None), ("url_rules", "exclude URL:(\\w+\\s?)+$", None),
    ("url_rules", "block everything", None),
]
BAD_CONFIGS = ['{"host_interval": -1}', '{"bogus_key": 1}', '{"host_interval": NaN}', '{"host_interval": Infinity}',
               '{"host_interval": 1e400}', '{"url_rules": "exclude URL:(a+)+$"}', '{"max_url_length": "long"}',
               '{"address_policy": 7}', "[1, 2", '"just a string"']
SEED_FILES = {
    "cp1250": "http://www.primer.rs/čćž\nhttp://www.čačak.rs/\n".encode("cp1250"),
    "utf-16 without a mark": "http://www.primer.rs/\n".encode("utf-16-le"),
    "binary": b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 8,
    "a million lines": b"".join(b"http://s%d.primer.rs/\n" % n for n in range(1_000_000)),
    "only other schemes": b"javascript:alert(1)\nmailto:a@b.rs\nftp://x.rs/\ndata:text/html,x\n",
    "an empty file": b"",
}
PROBE_URLS = ["/frontier/harvest/?crawl=%C2%B2", "/frontier/harvest/?crawl=99999999999999999999999",
              "/crawls/99999999999999999999999/", "/crawls/1/sites/99999999999999999999999/",
              "/frontier/harvest/?crawl=-1", "/frontier/harvest/?crawl=1e3"]


def _bad_inputs(quick: bool) -> list[dict]:
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from crawlweb.models import Crawl, Seed, SeedList

    get_user_model().objects.create_superuser("hostile-admin", "a@napad.rs", "x-Secret-1234")
    client = Client(raise_request_exception=False)
    client.force_login(get_user_model().objects.get(username="hostile-admin"))
    cases: list[dict] = []

    def counts():
        return Crawl.objects.count(), SeedList.objects.count(), Seed.objects.count()

    def check(name: str, do) -> None:
        before = counts()
        try:
            ok, detail = do()
        except Exception as error:  # noqa: BLE001 - a crash is the finding, reported as a failed case
            ok, detail = False, f"{type(error).__name__}: {error}"[:200]
        created = counts() != before
        cases.append({"name": f"input: {name}", "ok": ok and not created,
                      "detail": detail + (" (something was created)" if created else "")})

    form = {"name": "bad", "strategy": "bfs", "pair": "sr-en", "page_budget": "10", "parallel_steps": "1",
            "start_urls": "http://www.primer.rs/", "weight_m01": "3", "weight_m03": "1", "topic_cutoff": "10"}
    settings = BAD_SETTINGS[::2] if quick else BAD_SETTINGS
    for field, value, flags in settings:
        def via_form(field=field, value=value):
            response = client.post("/crawls/new/", {**form, field: value})
            lines = [line for line in (response.context or {}).get("error_lines", []) if line.startswith(field)]
            return response.status_code == 400 and len(lines) >= 1, f"{response.status_code}: {lines[:1]}"[:160]
        check(f"form {field}={value[:30]}", via_form)
        if flags is None:
            continue

        def via_command(flags=flags):
            from django.core.management.base import CommandError
            try:
                _call("crawl", "start", "--url", "http://www.primer.rs/", "--no-wait", *flags)
            except CommandError as error:
                first = str(error).splitlines()[0]
                return True, first[:150]
            return False, "accepted"
        check(f"command {' '.join(flags)[:40]}", via_command)

    crawl = Crawl.objects.create(name="probe", config={"host_interval": 2})
    change_url = reverse("admin:crawlweb_crawl_change", args=[crawl.pk])
    for config in (BAD_CONFIGS[::2] if quick else BAD_CONFIGS):
        def via_admin(config=config):
            response = client.post(change_url, {
                "name": "probe", "strategy": crawl.strategy, "state": crawl.state, "page_budget": 10,
                "pages_fetched": 0, "source_language": "sr", "target_language": "en", "max_depth": 20,
                "parallel_steps": 1, "config": config})
            crawl.refresh_from_db()
            return (response.status_code == 200 and b"errorlist" in response.content
                    and crawl.config == {"host_interval": 2}), f"{response.status_code}"
        check(f"admin config {config[:40]}", via_admin)

    seed_list = SeedList.objects.create(name="probe seeds")
    import_url = reverse("admin:crawlweb_seedlist_import", args=[seed_list.pk])
    with tempfile.TemporaryDirectory() as tmp:
        for name, content in SEED_FILES.items():
            if quick and name == "a million lines":
                continue
            from django.core.files.uploadedfile import SimpleUploadedFile

            def via_admin_import(content=content):
                response = client.post(import_url, {"file": SimpleUploadedFile("seeds.txt", content)}, follow=True)
                added = Seed.objects.filter(seed_list=seed_list).count()
                text = response.content.decode("utf-8", "replace")
                # the whole file refused, every line skipped, or a form error
                refused = "Nothing imported from" in text or "0 seeds added" in text or "errorlist" in text
                return response.status_code == 200 and added == 0 and refused, f"{response.status_code}"
            check(f"admin seed file: {name}", via_admin_import)
            path = Path(tmp) / "seeds.txt"
            path.write_bytes(content)

            def via_command_seeds(path=path):
                from django.core.management.base import CommandError
                try:
                    _call("crawl", "start", "--seeds", str(path), "--no-wait")
                except CommandError as error:
                    return "nothing was created" in str(error) or "seed file" in str(error), str(error)[:150]
                return False, "accepted"
            check(f"command seed file: {name}", via_command_seeds)

    for url in PROBE_URLS:
        def via_probe(url=url):
            response = client.get(url)
            return response.status_code in (200, 302, 400, 404), f"{response.status_code}"
        check(f"probe {url}", via_probe)
    return cases


ADMIN_LISTS = ["crawlweb/page", "crawlweb/link", "crawlweb/site", "crawlweb/host", "crawlweb/crawl",
               "frontier/target", "evaluation/candidatepair", "evaluation/discoveredsite", "labeling/evaluationitem"]


def injection_views(crawl, pair, injected_pages) -> list[str]:
    """Every view that shows the crawled text of ``crawl``'s injection pages (tests/browser/test_hostile_views.py
    opens the same ones in a live browser)."""
    from crawlweb.models import Site
    from frontier.models import Target

    views = ["/", f"/crawls/{crawl.pk}/", f"/crawls/{crawl.pk}/discovery/", f"/frontier/harvest/?crawl={crawl.pk}",
             f"/pairs/crawls/{crawl.pk}/", f"/pairs/crawls/{crawl.pk}/pairs/", f"/pairs/crawls/{crawl.pk}/sites/",
             f"/pairs/crawls/{crawl.pk}/discovered/", f"/pairs/crawls/{crawl.pk}/patterns/"]
    views += [f"/crawls/{crawl.pk}/sites/{s.pk}/" for s in Site.objects.filter(pages__crawl=crawl).distinct()]
    views += [f"/frontier/targets/{t.pk}/" for t in Target.objects.filter(crawl=crawl, page__in=injected_pages)]
    views += [f"/admin/{name}/" for name in ADMIN_LISTS]
    views += ["/admin/crawlweb/page/?q=napad", f"/admin/evaluation/candidatepair/{pair.pk}/change/"]
    views += [f"/admin/crawlweb/page/{p.pk}/change/" for p in injected_pages]
    return views


def _injection_views_in_a_browser(site: dict) -> list[dict]:
    """Crawl the injection pair's site, render every view of its text, load each into Chromium offline."""
    import re

    from django.contrib.auth import get_user_model
    from django.test import Client
    from playwright.sync_api import sync_playwright

    from crawlweb.models import Crawl, Page
    from crawlweb.jobs.crawl_control import start_crawl
    from evaluation.models import CandidatePair

    rules = "allow HOST:^(" + "|".join(re.escape(h) for h in site["hosts"]) + ")$"
    crawl = Crawl.objects.create(name="injection", page_budget=80, config={"url_rules": rules})
    start_crawl(crawl, extra_urls=site["homes"])
    source_url, target_url = site["pair"]
    pages = list(Page.objects.filter(crawl=crawl, url__in=[source_url, target_url]))
    pair = CandidatePair.objects.filter(crawl=crawl, source_url=source_url).first()
    if len(pages) != 2 or pair is None:
        return [{"name": "xss: the injection pair crawled", "ok": False,
                 "detail": f"{len(pages)} of its 2 pages stored, pair {'found' if pair else 'missing'}"}]
    admin = get_user_model().objects.create_superuser("xss-admin", "xss@example.org", "xss-password-1")
    client = Client()
    client.force_login(admin)
    # every answer first: Django refuses database access inside Playwright's event loop
    answers = [(view, response.status_code, response.content.decode("utf-8", "replace"))
               for view, response in ((view, client.get(view)) for view in injection_views(crawl, pair, pages))]
    cases = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync"])
        try:
            for view, status, html in answers:
                page = browser.new_page()
                dialogs = []
                page.on("dialog", lambda dialog, seen=dialogs: (seen.append(dialog.message), dialog.dismiss()))
                page.route("**/*", lambda route: route.abort())  # offline: only the answer itself runs
                page.set_content(html, wait_until="load")
                page.wait_for_timeout(50)  # onerror handlers of blocked images fire after the load
                ran = any(frame.evaluate("() => window.__injected !== undefined") for frame in page.frames)
                shown = "__injected" in page.locator("body").inner_text()
                page.close()
                cases.append({"name": f"xss: {view}", "ok": status < 500 and not ran and not dialogs,
                              "detail": f"{status}; script ran: {ran}, dialogs: {len(dialogs)}, "
                                        f"payloads {'shown as text' if shown else 'not on this view'}"})
        finally:
            browser.close()
    return cases


def main() -> None:
    if len(sys.argv) >= 3 and sys.argv[1] == "--child":
        print(json.dumps(_child(int(sys.argv[2]), "--quick" in sys.argv)))
        return
    started = time.monotonic()
    result = run("--quick" in sys.argv)
    for case in result["cases"]:
        print(f"{'ok  ' if case['ok'] else 'FAIL'} {case['name']}: {case['detail']}")
    figures = {k: v for k, v in result.items() if k != "cases"}
    print(json.dumps(figures), f"({time.monotonic() - started:.1f} s)")


if __name__ == "__main__":
    main()
