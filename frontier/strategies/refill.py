"""What a back/forward crawl does when its backlink and forward queues run dry.

OBFC and COBFC follow only the outlinks of seeds and backlink pages (Barbosa et al. 2011, Sec.
2.2), so a crawl whose backlink providers know little (the crawl's own link graph at the start,
a real web of few hubs) runs out of Targets long before its budget: measured on the real
development web, a COBFC crawl at budget 500 stopped after 14 pages. Before finishing, the crawl
asks for more, in this order, a bounded number at a time (each stage only when the one before has
nothing left):

1. ``unjudged_sites``: out-of-site links already stored (from any fetched page, forward pages
   included) to sites the crawl has no Target on yet, or only failed ones (a seed's root answering
   404 while a hub links the site's English home), to URLs not tried yet: one link per site, links
   found on pages of sites judged bilingual first (the paper's premise: bilingual sites link to
   bilingual sites); a site is given up after RETRIES_PER_SITE failures;
2. ``bilingual_pages``: in-site links of the pages of sites judged bilingual, not yet Targets,
   shallowest pages first: what is left of the budget goes to the sites worth pairing;
3. ``seed_site_pages``: the sites of seeds judged not bilingual one level down, as seeds (a
   directory's category pages list the sites its home page does not link);
4. ``unsure_pages``: in-site links of the sites the BS Detector judged not bilingual, at most
   UNSURE_PAGES_PER_SITE per site and refill, in turn over the sites (the sites read least by refills
   first), shallowest pages first. The
   detector reads at most a few pages behind the links of one page; a switch whose target is a
   mixed page (a trilingual home), a Serbian page it identified as "und", or an English side
   reached only from another page leave it one language short. Pages of the site's own then let
   the combined verdict decide (evaluation.services.site_verdicts: each language on at least two pages).
   Measured on the real development web: COBFC at budget 500 stopped after 276 pages with six
   bilingual sites judged no;
5. ``bilingual_sitemaps``: the sitemaps (robots.txt ``Sitemap:`` lines, else ``/sitemap.xml``) of
   the hosts of sites judged bilingual, once per host (crawlweb.services.sitemap_targets); a fetched
   sitemap's entries become Targets of origin ``sitemap`` there.

Stages 1, 2 and 4 enter the forward queue with origin ``refill``, so they stay apart from the paper's
forward links. When no stage finds anything, the crawl
finishes as before.
"""
from __future__ import annotations

from collections import Counter
from itertools import zip_longest
from urllib.parse import urlsplit

from django.db.models import Min

from crawlweb.crawler.candidates import Candidate
from crawlweb.crawler.urls import site_name, validate_url
from crawlweb.models import Link, Page
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.page_prep import FOLLOWED_LINK_KINDS, SPECULATIVE_LINK_KINDS
from crawlweb.services.sitemap_targets import SitemapStart, root_sitemap_targets
from crawlweb.services.targets import NewTarget, add_new_targets
from frontier.models import SiteVerdict, Target

REFILL_LINKS_READ = 5000  # stored links read per refill: the query stays bounded on a large crawl
# What a refill reads of a link's page is its id and site; these columns (the page's text, its language
# evidence as JSON) made a refill of 5,000 links read and decode megabytes on a crawl of 20,000 sites.
UNREAD_PAGE_FIELDS = tuple(f"page__{name}" for name in (
    "text", "language_evidence", "headings", "tag_signature", "headers", "title", "meta_keywords",
    "meta_description", "canonical_url"))
RETRIES_PER_SITE = 2  # failed Targets after which a site is left alone


def _links(crawl, **filters) -> list[Link]:
    """Stored links the crawl may follow: a link its URL rules refuse would take a place of a stage's
    limit and add nothing (a hub listing 48 sites, of which the rules allow one: the refill offered 32
    refused sites, added none, and the crawl ended without judging the allowed one)."""
    config = CrawlConfig.for_crawl(crawl)
    links = (Link.objects.filter(page__crawl=crawl, kind__in=FOLLOWED_LINK_KINDS, **filters)
             .select_related("page").defer(*UNREAD_PAGE_FIELDS).order_by("page_id", "id")[:REFILL_LINKS_READ])
    return [link for link in links if validate_url(link.target_url, config.rules, config.max_url_length) is None]


def _depths(crawl, page_ids) -> dict[int, int]:
    return dict(Target.objects.filter(crawl=crawl, page_id__in=set(page_ids)).values_list("page_id", "depth"))


def unjudged_sites(crawl, limit: int) -> list[NewTarget]:
    """One stored out-of-site link per unjudged site, to a URL not tried yet, bilingual sources first.
    Unjudged: no Target on the site, or only failed ones, fewer than RETRIES_PER_SITE of them (a root
    that answers 404 while its pages are linked elsewhere is tried again through another link)."""
    failed = Counter(Target.objects.filter(crawl=crawl, state=Target.State.FAILED).values_list("site__name", flat=True))
    tried_sites = set(Target.objects.filter(crawl=crawl).exclude(state=Target.State.FAILED)
                      .values_list("site__name", flat=True).distinct())
    left_alone = tried_sites | {site for site, n in failed.items() if n >= RETRIES_PER_SITE}
    bilingual = set(SiteVerdict.objects.filter(crawl=crawl, bilingual=True).values_list("site_id", flat=True))
    links = [link for link in _links(crawl, out_of_site=True) if link.kind not in SPECULATIVE_LINK_KINDS]
    links.sort(key=lambda link: (link.page.site_id not in bilingual, link.page_id, link.id))
    tried = set(Target.objects.filter(crawl=crawl, url__in={link.target_url for link in links})
                .values_list("url", flat=True))
    chosen: dict[str, Link] = {}
    for link in links:
        site = site_name(urlsplit(link.target_url).hostname or "")
        if site and site not in left_alone and site not in chosen and link.target_url not in tried:
            chosen[site] = link
            if len(chosen) >= limit:
                break
    depths = _depths(crawl, [link.page_id for link in chosen.values()])
    return [_new_target(link, depths.get(link.page_id, 0) + 1) for link in chosen.values()]


def _in_site_links(crawl, site_ids) -> tuple[list[Link], set[str], dict[int, int]]:
    """The sites' stored in-site links, shallowest source pages first (the sites' scripts after every
    page); the URLs among them the crawl has as Targets already; the depth of each source page."""
    links = _links(crawl, out_of_site=False, page__site_id__in=site_ids)
    known = set(Target.objects.filter(crawl=crawl, url__in={link.target_url for link in links})
                .values_list("url", flat=True))
    depths = _depths(crawl, [link.page_id for link in links])
    # the sites' own scripts (kind "script-src") last: most of them name no page
    links.sort(key=lambda link: (link.kind == "script-src", depths.get(link.page_id, 0), link.page_id, link.id))
    return links, known, depths


def bilingual_pages(crawl, limit: int) -> list[NewTarget]:
    """In-site links of bilingual sites' pages that are not Targets yet, shallowest source pages first."""
    bilingual = list(SiteVerdict.objects.filter(crawl=crawl, bilingual=True).values_list("site_id", flat=True))
    if not bilingual:
        return []
    links, known, depths = _in_site_links(crawl, bilingual)
    out: dict[str, NewTarget] = {}
    for link in links:
        if link.target_url not in known and link.target_url not in out:
            out[link.target_url] = _new_target(link, depths.get(link.page_id, 0) + 1)
            if len(out) >= limit:
                break
    return list(out.values())


def bilingual_sitemaps(crawl, limit: int) -> list[NewTarget]:
    """The root sitemaps of the hosts of sites judged bilingual that the crawl has not asked for."""
    config = CrawlConfig.for_crawl(crawl)
    bilingual = list(SiteVerdict.objects.filter(crawl=crawl, bilingual=True).values_list("site_id", flat=True))
    if not config.sitemaps or not bilingual:
        return []
    first_ids = (Page.objects.filter(crawl=crawl, site_id__in=bilingual, status_code=200, content_type="text/html")
                 .values("host_id").annotate(first=Min("id")).values_list("first", flat=True))
    first_pages = list(Page.objects.filter(pk__in=list(first_ids)).select_related("host").order_by("id"))
    depths = _depths(crawl, [page.pk for page in first_pages])
    starts = [SitemapStart(page.url, page.host, depths.get(page.pk, 0) + 1, page) for page in first_pages]
    return root_sitemap_targets(crawl, config, starts)[:limit]


UNSURE_PAGES_PER_SITE = 2


def unsure_pages(crawl, limit: int) -> list[NewTarget]:
    """In-site links of sites judged not bilingual, UNSURE_PAGES_PER_SITE per site in turn, shallowest first."""
    unsure = list(SiteVerdict.objects.filter(crawl=crawl, bilingual=False).values_list("site_id", flat=True))
    if not unsure:
        return []
    links, known, depths = _in_site_links(crawl, unsure)
    per_site: dict[int, list[Link]] = {}
    seen = set(known)
    for link in links:
        chosen = per_site.setdefault(link.page.site_id, [])
        if link.target_url not in seen and len(chosen) < UNSURE_PAGES_PER_SITE:
            seen.add(link.target_url)
            chosen.append(link)
    # In turn across refills too: the sites that had fewest refill pages so far come first, else the
    # first sites of the link order would take every refill's whole limit.
    served = Counter(Target.objects.filter(crawl=crawl, origin=Target.Origin.REFILL, site_id__in=unsure)
                     .values_list("site_id", flat=True))
    order = sorted(per_site, key=lambda site_id: served[site_id])  # stable: link order among equals
    turns = [link for round_ in zip_longest(*(per_site[s] for s in order)) for link in round_ if link is not None]
    return [_new_target(link, depths.get(link.page_id, 0) + 1) for link in turns[:limit]]


def _new_target(link: Link, depth: int, origin: str = Target.Origin.REFILL) -> NewTarget:
    candidate = Candidate(link.url_as_linked or link.target_url, link.anchor_text, link.text_around, link.img_alt,
                          link.img_src, priority=-1.0 - depth / 100, normalized=link.target_url)
    return NewTarget(candidate, origin, depth, link.page)


def seed_site_pages(crawl, limit: int) -> list[NewTarget]:
    """In-site links of the seed pages, as seeds one level down: a seed is often a directory or a hub
    whose home page links only its own category pages, and those list the sites (the test web's
    directories: a COBFC crawl from them ended after 4 pages). Only seeds whose site the detector
    judged not bilingual (a hub, a directory; a bilingual seed site gets its pages from
    ``bilingual_pages``, and an undecided one waits for its verdict). Their origin is seed, so the
    strategy follows their out-of-site links as forward links; one level only (seeds at depth 0)."""
    not_bilingual = SiteVerdict.objects.filter(crawl=crawl, bilingual=False).values("site_id")
    seed_pages = list(Target.objects.filter(crawl=crawl, origin=Target.Origin.SEED, depth=0, page__isnull=False,
                                            site_id__in=not_bilingual).values_list("page_id", flat=True))
    if not seed_pages:
        return []
    links = _links(crawl, out_of_site=False, page_id__in=seed_pages)
    known = set(Target.objects.filter(crawl=crawl, url__in={link.target_url for link in links})
                .values_list("url", flat=True))
    out: dict[str, NewTarget] = {}
    for link in links:
        if link.target_url not in known and link.target_url not in out:
            out[link.target_url] = _new_target(link, 1, Target.Origin.SEED)
            if len(out) >= limit:
                break
    return list(out.values())


# Sitemaps last: a bilingual site's sitemap queues all its entries at once (up to CRAWLER_SITEMAP_MAX_URLS),
# which took the budget COBFC needs to judge more sites (real web, budget 500: R 0.935 without that stage
# first, 0.742 with it second).
REFILL_STAGES = (unjudged_sites, bilingual_pages, seed_site_pages, unsure_pages, bilingual_sitemaps)


def refill(crawl, limit: int = 32) -> tuple[str, list[int]]:
    """(stage, new Target ids) of the first stage that adds Targets; ("", []) when none does."""
    for stage in REFILL_STAGES:
        new = stage(crawl, limit)
        if new:
            added = add_new_targets(crawl, new)
            if added.new_ids:
                return stage.__name__, added.new_ids
    return "", []
