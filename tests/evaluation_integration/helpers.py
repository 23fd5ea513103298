"""Crawl a handful of test-web sites chosen by their kind and layout, jobs run synchronously."""
from __future__ import annotations

import re

from crawlweb.crawler.urls import normalize_url
from crawlweb.models import Crawl
from crawlweb.jobs.crawl_control import start_crawl


def pick_sites(truth: dict, wanted: list[tuple[str, str]]) -> list[dict]:
    """One site of each (kind, layout) wanted, in the order given."""
    out = []
    for kind, layout in wanted:
        # robots "none": no Crawl-delay to sit out, so the test stays fast
        site = next(s for s in truth["sites"] if s["kind"] == kind and s["layout"] == layout
                    and s["robots"] == "none" and s not in out)
        out.append(site)
    return out


def crawl_sites(sites: list[dict], *, budget: int = 120, start_from: list[dict] | None = None) -> Crawl:
    """A crawl restricted (url_rules) to the given sites' hosts, started from the home pages of
    ``start_from`` (default: all of them)."""
    hosts = sorted({h for s in sites for h in s["hosts"]})
    rules = "allow HOST:^(" + "|".join(re.escape(h) for h in hosts) + ")$"
    crawl = Crawl.objects.create(name="pairs", page_budget=budget, config={"url_rules": rules})
    start_crawl(crawl, extra_urls=home_urls(sites if start_from is None else start_from))
    crawl.refresh_from_db()
    return crawl


def truth_pairs(site: dict) -> set[frozenset]:
    return {frozenset(normalize_url(u) for u in pair) for pair in site["parallel_pairs"]}


def site_name_of(site: dict) -> str:
    """The Site row a test-web site is stored under (its canonical host, without www.)."""
    return site["host"].removeprefix("www.")


def home_urls(sites: list[dict]) -> list[str]:
    return [url for s in sites for url in s["home_urls"].values()]


def crawl_with_deep_guesses(crawl: Crawl, urls: list[str]) -> Crawl:
    """Crawl from ``urls`` with a plain start: the crawl checks the deep guesses of its last pass, fetches
    what they found and passes again itself (evaluation/services/deep_rounds.py)."""
    start_crawl(crawl, extra_urls=urls)
    crawl.refresh_from_db()
    return crawl
