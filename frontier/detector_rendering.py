"""Rendering for the BS Detector: when a site's HTML left it one language short and its page hints at a
switch drawn by script (frontier.classifiers.render_hints), the page and the pages read in a language of
the pair are rendered in Chromium (crawlweb.services.rendering), and the site decided again from the links
their rendered DOM adds, within the crawl's per-site render budget."""
from __future__ import annotations

from crawlweb.models import Crawl, Page
from crawlweb.services.rendering import RenderOutcome, render_page_links, renderer_for, rendering_available


def renders(budget: int) -> bool:
    """Whether render_and_decide would render anything: a budget, and Chromium on this machine."""
    return budget > 0 and rendering_available()


def render_and_decide(crawl: Crawl, budget: int, page: Page, pair: tuple[str, str], verdict, fetches,
                      decide) -> tuple[object, list[RenderOutcome]]:
    """Render the input page, then the pages the detector read in a language of the pair, at most
    ``budget`` pages, deciding again (``decide()``) after each render that found links; stops once
    bilingual. ``fetches``: the detector's reader (detector_job.DetectorFetches), whose pages are followed."""
    if not renders(budget):
        return verdict, []
    outcomes: list[RenderOutcome] = []
    queue, done = [page], set()
    with renderer_for(crawl, page) as renderer:
        while queue and len(outcomes) < budget:
            current = queue.pop(0)
            done.add(current.pk)
            outcome = render_page_links(crawl, current, renderer)
            outcomes.append(outcome)
            if outcome.links_added:
                fetches.links.forget(current.pk)  # its rendered links are stored now
                verdict = decide()
                if verdict.bilingual:
                    break
            queue += [read.page for read in fetches.fetches.values()
                      if read.page is not None and read.page.pk not in done
                      and (read.page.language or "").split("-")[0] in pair and read.page not in queue]
    return verdict, outcomes
