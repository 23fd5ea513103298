"""Render a stored page of a crawl in headless Chromium and keep the links only its scripts draw.

The rendered DOM goes through the same preparation as fetched HTML (page_prep.prepare_page: parse,
links with their contexts, hreflang); the links it has that the stored page lacks are stored on that
page as Links of kind "rendered" and become Targets of the crawl, so the BS Detector, pairing and the
crawl read them as any other link. When the scripts took the browser elsewhere (a redirect by the
browser's language), the page it landed on is a "rendered" link too, with the language that page
declares as its hreflang.

Every request of the rendered page goes through the crawl's Fetcher (address policy, proxy, caps),
and only to the page's own site, as robots.txt allows (crawlweb.crawler.render). The browser is the
process's own (crawlweb.crawler.browser_host.shared_host): started by the first render, kept for
the jobs after it, each page in a context of its own. Each render's cost is recorded by the caller
(RenderOutcome.ms).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from crawlweb.crawler.fetch import FetchResult
from crawlweb.crawler.browser_host import BrowserHost, shared_host
from crawlweb.crawler.render import DEAD_PROXY, PageRenderer, RenderError
from crawlweb.crawler.scriptlinks import same_site
from crawlweb.crawler.urls import site_name
from crawlweb.models import Crawl, Host, Link, Page
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.network import fetcher_for
from crawlweb.services.page_prep import prepare_link, prepare_page
from crawlweb.services.storing import robots_policy
from crawlweb.services.targets import Candidate, add_targets

log = logging.getLogger(__name__)
RENDERED = "rendered"


@dataclass
class RenderOutcome:
    url: str
    final_url: str = ""
    ms: float = 0.0
    settle_ms: float = 0.0  # of ms, the wait for the page's scripts after its load event
    links_added: int = 0
    requests: int = 0
    refused: int = 0
    error: str = ""

    def evidence(self) -> dict:
        out = {"url": self.url, "final_url": self.final_url, "ms": round(self.ms, 1),
               "settle_ms": round(self.settle_ms, 1), "links_added": self.links_added,
               "requests": self.requests, "refused": self.refused}
        return {**out, "error": self.error} if self.error else out


def rendering_available() -> bool:
    return bool(settings.CRAWLER_CHROMIUM)


def process_browser() -> BrowserHost:
    """This process's browser for rendering, whichever job or thread renders."""
    return shared_host(settings.CRAWLER_CHROMIUM, pages_per_browser=settings.CRAWLER_RENDER_BROWSER_PAGES,
                       idle_s=settings.CRAWLER_RENDER_BROWSER_IDLE, proxy=DEAD_PROXY)


def renderer_for(crawl: Crawl, page: Page) -> PageRenderer:
    """A renderer whose requests stay on ``page``'s site and obey its robots.txt."""
    config = CrawlConfig.for_crawl(crawl)
    fetcher = fetcher_for(config.address_policy)
    base = page.final_url or page.url
    # Read now: the route runs inside Playwright's event loop, where Django refuses database queries.
    bare = (urlsplit(base).hostname or "").removeprefix("www.")
    policies = {host.name: robots_policy(host) for host in Host.objects.filter(name__in=[bare, f"www.{bare}"])}

    def allowed(url: str) -> bool:
        if not same_site(url, base):
            return False
        policy = policies.get(urlsplit(url).hostname or "")
        return policy is None or policy.allows(url, settings.CRAWLER_USER_AGENT)

    return PageRenderer(settings.CRAWLER_CHROMIUM, fetcher.fetch, allowed, timeout_s=settings.CRAWLER_RENDER_TIMEOUT,
                        max_requests=settings.CRAWLER_RENDER_REQUESTS, user_agent=settings.CRAWLER_USER_AGENT,
                        host=process_browser())


def render_page_links(crawl: Crawl, page: Page, renderer: PageRenderer) -> RenderOutcome:
    """Render ``page`` and store the links only the rendered DOM has; a failure is reported, never raised."""
    url = page.final_url or page.url
    outcome = RenderOutcome(url)
    try:
        rendered = renderer.render(url)
    except RenderError as error:
        log.info("crawl %s: %s", crawl.pk, error)
        outcome.error = str(error)[:500]
        return outcome
    outcome.final_url, outcome.ms, outcome.settle_ms = rendered.final_url, rendered.ms, rendered.settle_ms
    outcome.requests, outcome.refused = rendered.requests, rendered.refused
    config = CrawlConfig.for_crawl(crawl)
    result = FetchResult(requested_url=url, final_url=rendered.final_url, status=200,
                         headers={"content-type": "text/html; charset=utf-8"}, body=rendered.html.encode("utf-8"))
    source_site = site_name(urlsplit(url).hostname or "")
    prepared = prepare_page(result, source_site, config, window_words=settings.CRAWLER_TEXT_WINDOW_WORDS)
    links = [made for made in prepared.links if made.values["kind"] not in ("canonical", "redirect")]
    if rendered.final_url.split("#")[0] != url.split("#")[0]:
        landed = prepare_link(rendered.final_url, RENDERED, source_site, config,
                              hreflang=prepared.fields.get("html_lang", ""))
        links = ([landed] if landed else []) + links
    known = set(page.links.values_list("target_url", "hreflang"))
    new, seen = [], set()
    for made in links:
        key = (made.values["target_url"], made.values.get("hreflang", ""))
        if key in known or key in seen:
            continue
        seen.add(key)
        made.values["kind"] = RENDERED
        new.append(made)
    Link.objects.bulk_create([Link(page=page, **made.values) for made in new])
    depth = (page.targets.values_list("depth", flat=True).first() or 0) + 1
    candidates = [Candidate(made.values["url_as_linked"], made.values.get("anchor_text", ""),
                            made.values.get("text_around", ""), made.values.get("img_alt", ""),
                            made.values.get("img_src", ""), normalized=made.values["target_url"])
                  for made in new if made.followed]
    if candidates:
        # origin: frontier's Target.Origin.FORWARD (frontier is a floor above this module)
        add_targets(crawl, candidates, origin="forward", depth=min(depth, crawl.max_depth), source_page=page,
                    config=config)
    outcome.links_added = len(new)
    return outcome
