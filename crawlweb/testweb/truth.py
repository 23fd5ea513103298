"""The ground truth of a test web: what a perfect crawler would report.

Shape (keys beyond these are informative):
  {"sites": [{"host", "hosts", "languages", "bilingual_sr_en", "kind", "parallel_pairs", ...}],
   "seed_urls": [...], "special_urls": {...}}
`parallel_pairs` are [Serbian URL, English URL] of fully translated pages only; pages whose
menu is translated but body is not are listed under `half_translated_pairs`, pages that exist
in one language only under `orphan_pages`. `pages` maps every page URL of the site to the
language of its text ("sr-cyrl", "sr-latn", "en", "hr", "de"). `seed_urls` are the directory
home pages (together they list every generated site) plus the roots of merged real sites.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol
from urllib.parse import quote

from .judging_cases import judging_truth
from .pages import LINKS_PAGE_PATH, PRIVATE_PATH
from .sitemap_files import declared_pairs, sitemap_urls
from .sites import (BILINGUAL, DIRECTORY, HALF, ISO_OF, ORPHAN_FIRST, ORPHAN_SECOND, SPECIAL,
                    TRANSLATED, SiteSpec)
from .specials import LOOPBACK_TARGET, PRIVATE_TARGET, REDIRECT_CHAIN, SPECIAL_PATHS

if TYPE_CHECKING:
    from .pages import PageModel
    from .real_sites import RealSites


class GeneratedWeb(Protocol):
    """What the truth reads of a generated web (generator.TestWeb, whose truth() calls build_truth):
    named here, so that truth.py does not import the generator back (no import cycle)."""

    seed: int
    size: int
    pages_per_site: int
    size_distribution: str
    sites: list[SiteSpec]
    case_site: SiteSpec | None
    real_sites: RealSites | None

    def site_pages(self, site: SiteSpec) -> dict[str, PageModel]: ...


def _site_truth(web: GeneratedWeb, site: SiteSpec) -> dict:
    languages = list(dict.fromkeys(ISO_OF[code] for code in site.languages))
    entry = {
        "host": site.host, "hosts": list(site.hosts), "languages": languages,
        "bilingual_sr_en": site.kind == BILINGUAL, "kind": site.kind,
        "parallel_pairs": [], "half_translated_pairs": [], "orphan_pages": [],
        "other_language_pairs": [],
        "scripts": sorted({code.split("-")[1] for code in site.languages if code.startswith("sr-")}),
        "layout": site.layout, "switcher": site.switcher, "hreflang": site.hreflang,
        "wrong_html_lang": site.wrong_html_lang, "robots": site.robots,
        "sitemap": site.sitemap, "sitemap_urls": sitemap_urls(site),
        "sitemap_declared_pairs": declared_pairs(site) if site.sitemap != "none" else [],
        "home_urls": {code: site.home_url(code) for code in site.languages},
        "links_page": f"http://{site.host}{LINKS_PAGE_PATH[site.languages[0]]}" if site.links_page else None,
        "pages": {},
    }
    if site.kind not in (DIRECTORY, SPECIAL):
        for model in web.site_pages(site).values():
            entry["pages"][model.url] = model.body_lang
    if len(site.languages) == 2:
        first, second = site.languages
        target = "parallel_pairs" if site.kind == BILINGUAL else "other_language_pairs"
        for slug in site.slugs:
            state = site.status.get(slug, TRANSLATED)
            pair = [site.url(first, slug), site.url(second, slug)]
            if state == TRANSLATED:
                entry[target].append(pair)
            elif state == HALF:
                entry["half_translated_pairs"].append(pair)
            elif state == ORPHAN_FIRST:
                entry["orphan_pages"].append(pair[0])
            elif state == ORPHAN_SECOND:
                entry["orphan_pages"].append(pair[1])
    return entry


def special_urls(web: GeneratedWeb) -> dict[str, str]:
    special = next((s for s in web.sites if s.kind == SPECIAL), None)
    urls: dict[str, str] = {}
    if special is not None:
        base = f"http://{special.host}"
        urls = {key: base + path for key, (path, _) in SPECIAL_PATHS.items()}
        urls["special_home"] = base + "/"
        urls["redirect_chain_final"] = base + REDIRECT_CHAIN[-1]
        urls["redirect_to_loopback_target"] = LOOPBACK_TARGET
        urls["redirect_to_private_target"] = PRIVATE_TARGET
    for site in web.sites:
        if site.robots != "none":
            urls.setdefault(f"robots_{site.robots.replace('-', '_')}", f"http://{site.host}/robots.txt")
            if site.robots == "disallow":
                urls.setdefault("robots_disallowed_page", f"http://{site.host}{PRIVATE_PATH}")
        for number, url in enumerate(sitemap_urls(site)):
            urls.setdefault(f"sitemap_{site.sitemap.replace('-', '_')}_{number}", url)
        if site.links_page:
            urls.setdefault("hub_links_page", f"http://{site.host}{LINKS_PAGE_PATH[site.languages[0]]}")
        if site.kind == DIRECTORY:
            urls.setdefault("directory", site.home_url())
        if site.kind == BILINGUAL:
            urls.setdefault("backlinks_example",
                            "http://backlinks.test/?url=" + quote(site.home_url(), safe=""))
    urls.setdefault("robots_none", f"http://{web.sites[-1].host}/robots.txt")
    return urls


def build_truth(web: GeneratedWeb) -> dict:
    sites = [_site_truth(web, site) for site in web.sites]
    seeds = [site.home_url() for site in web.sites if site.kind == DIRECTORY]
    if web.real_sites is not None:
        sites += web.real_sites.truth_sites
        # No generated page links to the real sites: their hubs, or their roots, are seeds.
        seeds += web.real_sites.seed_urls
    extra = {"judging_cases": judging_truth(web.case_site)} if web.case_site is not None else {}
    if web.size_distribution != "uniform":  # the default web's truth stays as it always was
        extra["size_distribution"] = web.size_distribution
    return {
        **extra,
        "seed": web.seed, "size": web.size, "pages_per_site": web.pages_per_site,
        "sites": sites,
        "seed_urls": seeds,
        "special_urls": special_urls(web),
        "backlink_service": "http://backlinks.test/?url=<urlencoded URL>",
    }
