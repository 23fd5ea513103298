"""One real crawl of a fuzz web (crawlweb/testweb/fuzz.py) and the property it must hold, for
tests/hardening/test_web_fuzzer.py and bench/hardening.py.

The property (issue 34): the crawl ends (state finished: its budget spent or its frontier empty), no
content is stored twice, and every Target ends in a recorded state: fetched (done), or failed/skipped with
its error recorded; none left leased, and none pending without a reason (the budget spent, or its host's
politeness clock or its retry time beyond the crawl's end).

Needs Django set up, the crawl settings of FUZZ_SETTINGS (tests apply them with pytest-django's
``settings``, the bench through the environment), and the crawler routed through ``server``'s proxy.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from django.db.models import Count

FUZZ_BUDGET = 30
FUZZ_TIME_LIMIT_S = 300  # a crawl still running then was left running without progress: stopped
FUZZ_SETTINGS = {
    "CRAWLER_HOST_INTERVAL": 0.0, "CRAWLER_READ_TIMEOUT": 2.0, "CRAWLER_TOTAL_TIMEOUT": 3.0,
    "CRAWLER_CONNECT_TIMEOUT": 2.0, "CRAWLER_IDLE_FINISH_SECONDS": 1.0, "CRAWLER_RETRY_BACKOFF": 0.3,
    "CRAWLER_MAX_ATTEMPTS": 2, "CRAWLER_MAX_PAGE_BYTES": 128 * 1024, "CRAWLER_WARC": False,
    "CRAWLER_BATCH_SIZE": 16,
}


@dataclass
class FuzzCrawl:
    """What one crawl of a fuzz web did, and what it broke."""

    crawl_id: int
    hosts: tuple[str, ...]
    cases_served: int                 # distinct fuzz answers the crawl asked for
    seconds: float
    stopped: list[str] = field(default_factory=list)   # why the crawl did not end well (empty: it did)
    problems: list[str] = field(default_factory=list)  # pages stored twice, Targets with no recorded end
    lost: int = 0                     # Targets ending neither fetched nor with their error recorded

    @property
    def ok(self) -> bool:
        return not self.stopped and not self.problems


def crawl_fuzz_web(server, web, *, budget: int = FUZZ_BUDGET) -> FuzzCrawl:
    """Serve ``web`` on ``server`` (a TestWebServer), crawl every host's home page to the end, check."""
    from crawlweb.models import Crawl
    from crawlweb.jobs.crawl_control import start_crawl

    fuzz = server.web.fuzz
    names = fuzz.install(web)
    started = time.monotonic()
    crawl = Crawl.objects.create(name=f"fuzz {names[0]}", page_budget=budget, time_limit_seconds=FUZZ_TIME_LIMIT_S)
    stopped = []
    try:
        start_crawl(crawl, extra_urls=[f"http://{name}/" for name in names])
    except Exception as error:  # a step that raised: one case ended the crawl
        stopped.append(f"the crawl raised {type(error).__name__}: {error}"[:500])
    seconds = time.monotonic() - started
    crawl.refresh_from_db()
    served = {(r.host, urlsplit(r.url).path or "/") for r in server.requests if r.host in names}
    cases = sum(1 for host, path in served if fuzz.case_of(host, path) is not None)
    fuzz.uninstall(names)
    result = FuzzCrawl(crawl.pk, names, cases, seconds, stopped)
    check_crawl(crawl, result)
    return result


def check_crawl(crawl, result: FuzzCrawl) -> None:
    """Add to ``result`` every way the finished ``crawl`` breaks the property."""
    from crawlweb.models import Crawl, Page
    from frontier.models import Target

    if crawl.state != Crawl.State.FINISHED:
        result.stopped.append(f"state {crawl.state} after {result.seconds:.1f} s; last error {crawl.last_error[:300]!r}")
    elif crawl.status_message.startswith("time limit"):
        result.stopped.append(f"no end before its time limit: {crawl.status_message}")
    twice = Page.objects.filter(crawl=crawl).values("md5").annotate(n=Count("pk")).filter(n__gt=1)
    result.problems += [f"content {row['md5']} stored {row['n']} times" for row in twice]
    budget_spent = crawl.pages_fetched >= crawl.page_budget
    for target in Target.objects.filter(crawl=crawl).select_related("host"):
        end = _unrecorded_end(target, crawl, budget_spent)
        if end:
            result.lost += 1
            problem = f"{target.url[:120]}: {end}"
            (result.stopped if target.state in (Target.State.LEASED, Target.State.PENDING) else
             result.problems).append(problem)


def _unrecorded_end(target, crawl, budget_spent: bool) -> str:
    """Why ``target``'s end is not a recorded one ("" when it is)."""
    from frontier.models import Target

    state = target.state
    if state == Target.State.DONE:
        return "" if target.page_id or target.status_code is not None or target.error_kind else "done without a fetch"
    if state in (Target.State.FAILED, Target.State.SKIPPED):
        return "" if target.error_kind or target.last_error else f"{state} without an error recorded"
    if state == Target.State.LEASED:
        return "left leased after the crawl ended"
    if budget_spent:
        return ""
    end = crawl.finished_at
    later = [m for m in (target.due_at, target.host.next_fetch_at, target.host.busy_until) if m is not None]
    if end is not None and any(moment > end for moment in later):
        return ""  # postponed beyond the crawl's end: a retry or the host's politeness
    return "left pending with nothing postponing it"
