"""What the pairing library sees of a site: its pages, languages, outlinks and declarations.

A Pupsniffer site is a web site, not a host: en.radio.rs and www.radio.rs are one site whose
subdomain label is a URL unit (⟨ε, en⟩).  The crawl's Site rows are per host (without www.), so
the Sites of one registrable domain form one pairing site, stored under a canonical Site (the
one named like the registrable domain, else the shortest name).  A registrable domain with more
than ``group_max_sites`` Site rows (a hosting platform whose public suffix the bundled list does
not know) is not grouped: each Site stands alone.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef

from crawlweb.models import Link, Page, Site
from evaluation.pairing.switch import SwitchLink
from evaluation.pairing.pipeline import SiteInput
from evaluation.pairing.records import PageRecord
from frontier.models import Target

SWITCHER_TEXT_MAX = 40  # a language switcher's label is short ("English", "SRP", a flag's alt)
# Links that may be a language switch: <a>, image-map areas, onclick targets and the targets the
# parser read speculatively from scripts (Link.kind "script"), which JS-driven switches leave.
SWITCH_KINDS = ("a", "area", "onclick", "script")


def crawl_sites(crawl_id: int) -> list[int]:
    """Ids of the Sites with stored pages in the crawl."""
    return list(Page.objects.filter(crawl_id=crawl_id).values_list("site_id", flat=True).distinct())


def site_group(crawl_id: int, site: Site, max_sites: int) -> list[Site]:
    """The Sites (with pages in the crawl) forming one pairing site with ``site``, canonical first."""
    if not site.registrable_domain:
        return [site]
    members = list(Site.objects.filter(registrable_domain=site.registrable_domain,
                                       pages__crawl_id=crawl_id).distinct())
    if site not in members:
        members.append(site)
    if len(members) > max_sites:
        return [site]
    return sorted(members, key=_canonical_order)


def canonical_site_ids(crawl_id: int, site_ids, max_sites: int) -> set[int]:
    """The canonical Site of each given Site's group (site_group's first), in two queries for all."""
    return set(canonical_of(crawl_id, site_ids, max_sites).values())


def canonical_of(crawl_id: int, site_ids, max_sites: int) -> dict[int, int]:
    """{Site id: its group's canonical Site id} for the given Sites, in two queries for all."""
    return {site_id: group[0].pk for site_id, group in groups_of(crawl_id, site_ids, max_sites).items()}


def groups_of(crawl_id: int, site_ids, max_sites: int) -> dict[int, list[Site]]:
    """{Site id: site_group of that Site} for the given Sites, in two queries for all."""
    sites = list(Site.objects.filter(pk__in=set(site_ids)))
    domains = {site.registrable_domain for site in sites if site.registrable_domain}
    members: dict[str, list[Site]] = defaultdict(list)
    # EXISTS, not a join with DISTINCT: the join read every page of the crawl's sites, per batch.
    crawled = Page.objects.filter(site=OuterRef("pk"), crawl_id=crawl_id)
    for member in Site.objects.filter(Exists(crawled), registrable_domain__in=domains):
        members[member.registrable_domain].append(member)
    out = {}
    for site in sites:
        group = members[site.registrable_domain] if site.registrable_domain else []
        group = group if site in group else group + [site]
        if not site.registrable_domain or len(group) > max_sites:
            out[site.pk] = [site]
        else:
            out[site.pk] = sorted(group, key=_canonical_order)
    return out


def _canonical_order(site: Site):
    return (site.name != site.registrable_domain, len(site.name), site.name)


def public_suffix(site: Site) -> str:
    """The domain for method "rescue_domain": the registrable domain minus its first label (gov.rs, rs)."""
    domain = site.registrable_domain or site.name
    return domain.split(".", 1)[1] if "." in domain else domain


@dataclass
class LoadedSite:
    site: Site  # canonical
    group: list[Site]
    pages: list[Page]
    records: dict[str, PageRecord]  # url → record
    page_by_url: dict[str, Page]
    site_input: SiteInput
    domain: str
    languages_of: dict[str, str] = field(default_factory=dict)


def _pairable_pages(crawl_id: int, site_ids):
    """The pages of these Sites that pairing sees: those stored with a 2xx status."""
    return Page.objects.filter(crawl_id=crawl_id, site_id__in=list(site_ids), status_code__gte=200,
                               status_code__lt=300)


def page_labels(crawl_id: int, site_ids) -> dict[int, list[tuple[str, str]]]:
    """(language, script) of each page load_sites would load of these Sites, by Site, in one query."""
    labels: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for site_id, language, script in _pairable_pages(crawl_id, site_ids).values_list("site_id", "language", "script"):
        labels[site_id].append((language, script))
    return labels


TEXT_FOR_CHECKS = 5000  # characters of a page's text the filter's transliteration check reads


def load_site(crawl_id: int, site: Site, max_sites: int, *, structure: bool = False) -> LoadedSite:
    """The site's pages as the pairing code sees them; ``structure`` also loads their tag
    signatures (the STRAND check: pages keep their text and signature, not their HTML)."""
    group = site_group(crawl_id, site, max_sites)
    return load_sites(crawl_id, [group], structure=structure)[group[0].pk]


def load_sites(crawl_id: int, groups: list[list[Site]], *, structure: bool = False,
               text: bool = True) -> dict[int, LoadedSite]:
    """load_site of many pairing groups (canonical Site first in each) in four queries for all, keyed
    by canonical Site id; ``text=False`` leaves the pages' text out (what only the filter reads)."""
    fields = ["id", "url", "final_url", "language", "script", "site_id"] + (["text"] if text else []) + (
        ["tag_signature"] if structure else [])
    canonical = {member.pk: group[0].pk for group in groups for member in group}
    pages_of: dict[int, list[Page]] = defaultdict(list)
    for page in _pairable_pages(crawl_id, canonical).only(*fields).order_by("id"):
        pages_of[canonical[page.site_id]].append(page)
    all_pages = [page for pages in pages_of.values() for page in pages]
    page_by_id = {page.pk: page for page in all_pages}
    by_url: dict[int, dict[str, Page]] = {group[0].pk: {} for group in groups}
    for key, pages in pages_of.items():
        for page in pages:
            by_url[key].setdefault(page.url, page)
        for page in pages:
            by_url[key].setdefault(page.final_url, page)
    # Other URLs that led to a stored page (/index.html of the page stored as /, a duplicate's URL):
    # a switch or a declaration written with them still names that page.
    aliases = Target.objects.filter(crawl_id=crawl_id, page__in=all_pages).order_by("id").values_list("url", "page_id")
    for url, page_id in aliases:
        page = page_by_id.get(page_id)
        if page is not None:
            by_url[canonical[page.site_id]].setdefault(url, page)
    links: dict[int, list[tuple]] = defaultdict(list)
    for row in Link.objects.filter(page__in=all_pages).values_list(
            "page_id", "target_url", "kind", "hreflang", "anchor_text", "img_alt", "img_src"):
        links[canonical[page_by_id[row[0]].site_id]].append(row)
    return {group[0].pk: _loaded(group, pages_of[group[0].pk], by_url[group[0].pk], links[group[0].pk], structure)
            for group in groups}


def _loaded(group: list[Site], pages: list[Page], page_by_url: dict[str, Page], links: list[tuple],
            structure: bool) -> LoadedSite:
    site = group[0]  # stored under the canonical Site whichever member was asked for
    outlinks: dict[int, list[str]] = defaultdict(list)
    alternates: dict[str, dict[str, str]] = defaultdict(dict)
    switches: list[SwitchLink] = []
    sitemap_alternates = []
    url_of = {p.pk: p.url for p in pages}
    for page_id, target, kind, hreflang, anchor, alt, src in links:
        if kind == "sitemap-alternate":
            if hreflang:
                sitemap_alternates.append((anchor, hreflang, target))
            continue
        if kind == "alternate" and hreflang:
            alternates[url_of[page_id]][hreflang] = _page_url(page_by_url, target)
            continue
        if kind == "a":
            outlinks[page_id].append(target)
        if kind in SWITCH_KINDS:
            other = page_by_url.get(target)
            if other is not None and other.url != url_of[page_id] and (len(anchor) <= SWITCHER_TEXT_MAX or alt or src):
                switches.append(SwitchLink(url_of[page_id], other.url, anchor, src, alt, "", other.language,
                                           hreflang=hreflang, kind=kind))
    deferred_text = "text" in pages[0].get_deferred_fields() if pages else False
    records = {p.url: PageRecord(p.url, p.language, p.script, 0 if deferred_text else len(p.text),
                                 tuple(outlinks.get(p.pk, ())),
                                 text="" if deferred_text else p.text[:TEXT_FOR_CHECKS],
                                 structure=p.tag_signature if structure else "")
               for p in pages}
    domain = public_suffix(site)
    _add_sitemap_alternates(alternates, sitemap_alternates, page_by_url)
    site_input = SiteInput(site.name, list(records.values()), domain, dict(alternates), switches)
    return LoadedSite(site, group, pages, records, page_by_url, site_input, domain,
                      {p.url: p.language for p in pages})


def _add_sitemap_alternates(alternates: dict[str, dict[str, str]], declared: list[tuple[str, str, str]],
                            page_by_url: dict[str, Page]) -> None:
    """A sitemap's ``xhtml:link`` alternates (Links of kind "sitemap-alternate" on the sitemap, the
    declaring page's URL as anchor_text) are the declaration ``<link rel=alternate hreflang>`` makes
    in the page's head; where both declare one language, the page's own wins."""
    for declaring, hreflang, target in declared:
        alternates[_page_url(page_by_url, declaring)].setdefault(hreflang, _page_url(page_by_url, target))


def _page_url(page_by_url: dict[str, Page], url: str) -> str:
    """A declared URL as the page it reached (the stored page's first URL), so declarations meet pages."""
    page = page_by_url.get(url)
    return page.url if page is not None else url
