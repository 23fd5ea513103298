"""The backlinks of a site the BS Detector judged bilingual, for a back/forward crawl (Barbosa et al. 2011,
Sec. 2.2): the configured providers are asked who links to its page, and the pages on other sites go to
the crawl's backlink queue; what they found and what failed is kept on the verdict's evidence."""
from __future__ import annotations

import logging
from urllib.parse import urlsplit

from crawlweb.crawler.urls import registrable_domain
from crawlweb.models import Crawl, Page
from crawlweb.services.targets import Candidate, add_targets
from frontier.backlinks.factory import collect_backlinks, providers_for
from frontier.models import SiteVerdict, Target

log = logging.getLogger(__name__)


def external_backlinks(urls: list[str], page_url: str) -> list[str]:
    """The backlinks on other sites. A site's own pages (its menus, its other-language copy on a
    subdomain: same registrable domain) link to it too, and search engines' link: answers are
    full of them; they are internal links, which the back/forward crawl leaves out (Barbosa et
    al. 2011, Sec. 2.2: "the crawler only considers out-of-site links")."""
    own = registrable_domain(urlsplit(page_url).hostname or "")
    return [url for url in urls if registrable_domain(urlsplit(url).hostname or "") != own]


def schedule_backlinks(crawl: Crawl, strategy, page: Page, verdict: SiteVerdict) -> int:
    """Ask the providers who links to the page; their pages on other sites go to the backlink queue."""
    found, errors = collect_backlinks(providers_for(crawl, strategy.settings), page.url)
    urls = external_backlinks(found, page.final_url or page.url)
    candidates = [Candidate(url) for url in urls]
    for candidate, priority in zip(candidates, strategy.backlink_priorities(candidates)):
        candidate.priority = priority
    depth = (Target.objects.filter(crawl=crawl, page=page).values_list("depth", flat=True).first() or 0) + 1
    added = add_targets(crawl, candidates, origin=Target.Origin.BACKLINK, depth=depth, source_page=page)
    verdict.evidence = {**verdict.evidence, "backlinks_found": len(found), "backlinks_internal": len(found) - len(urls),
                        "backlinks_added": added.added,
                        "backlink_errors": errors}
    verdict.save(update_fields=["evidence"])
    if errors:
        log.warning("crawl %s: backlink providers failed for %s: %s", crawl.pk, page.url, errors)
    return added.added
