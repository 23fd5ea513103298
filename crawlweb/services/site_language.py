"""The site-level language decision applied to a crawl's stored pages.

``settle_site_languages`` reads the language evidence every stored page of a site carries
(Page.language_evidence, written when the page was prepared), decides the site's variety
(crawlweb.language.site_variety) and writes the result: Page.language/script of the pages the
decision corrects, and one SiteLanguage row with the scores and evidence behind it. It reads only
the pages' own evidence, never the labels it wrote before, so running it twice, or after more
pages arrived, gives the decision for the pages stored by then. Scoring calls it before it pairs
a site (evaluation.services.scoring); the BS Detector can call it before it judges one.
"""
from __future__ import annotations

import json
from collections import defaultdict

from django.db import transaction
from django.db.models import Count

from crawlweb.language.site_variety import SiteVariety, site_variety
from crawlweb.language.switch_labels import declare_switch_labels
from crawlweb.models import Page, Site, SiteLanguage
from crawlweb.services.bulk_rows import write_site_rows


def site_observations(crawl_id: int, site_id: int) -> dict[str, dict]:
    """{page id (str): observation} of the site's stored pages. A page stored before pages kept
    their evidence counts with its stored label only."""
    return observations_of_sites(crawl_id, [site_id]).get(site_id, {})


def observations_of_sites(crawl_id: int, site_ids) -> dict[int, dict[str, dict]]:
    """{site id: site_observations} of many sites, in one query."""
    return _observations_and_labels(crawl_id, site_ids)[0]


def _observations_and_labels(crawl_id: int, site_ids) -> tuple[dict[int, dict[str, dict]], dict[int, tuple]]:
    """observations_of_sites, and {page id: (language, script)} as stored, from the same query."""
    observations: dict[int, dict[str, dict]] = defaultdict(dict)
    labels: dict[int, tuple] = {}
    switches: dict[int, list[dict]] = defaultdict(list)  # site → its pages' switch labels, {URL: variety} each
    rows = Page.objects.filter(crawl_id=crawl_id, site_id__in=list(site_ids)).values_list(
        "site_id", "pk", "language", "script", "language_evidence")
    for site_id, pk, language, script, evidence in rows:
        labels[pk] = (language, script)
        if isinstance(evidence, dict) and evidence.get("lang"):
            observations[site_id][str(pk)] = evidence
            if evidence.get("labels"):
                switches[site_id].append(evidence["labels"])
        else:
            observations[site_id][str(pk)] = {"lang": language or "und", "script": script or None}
    if switches:  # only the sites whose switches label pages need their pages' URLs
        keys = _page_keys_by_url(crawl_id, list(switches))
        for site_id, page_labels in switches.items():
            declare_switch_labels(observations[site_id], keys[site_id], page_labels)
    return observations, labels


def _page_keys_by_url(crawl_id: int, site_ids: list[int]) -> dict[int, dict[str, str]]:
    """{site id: {URL: page key}}, a page's key under the URL it was requested as and the one it landed
    on; a URL requested wins over another page's redirect to it."""
    requested: dict[int, dict[str, str]] = defaultdict(dict)
    landed: dict[int, dict[str, str]] = defaultdict(dict)
    for site_id, pk, url, final_url in Page.objects.filter(crawl_id=crawl_id, site_id__in=site_ids).values_list(
            "site_id", "pk", "url", "final_url"):
        requested[site_id][url] = landed[site_id][final_url] = str(pk)
    return {site_id: {**landed[site_id], **requested[site_id]} for site_id in site_ids}


def decide_site_language(crawl_id: int, site_id: int) -> SiteVariety:
    """The decision for the site's stored pages, without writing anything."""
    site = Site.objects.get(pk=site_id)
    return site_variety(site.name, site_observations(crawl_id, site_id))


def decide_sites_languages(crawl_id: int, site_ids) -> dict[int, SiteVariety]:
    """decide_site_language for many sites from one read of their pages (a site that does not exist is left out)."""
    site_ids = set(site_ids)
    return _decisions(crawl_id, site_ids, observations_of_sites(crawl_id, site_ids))


def _decisions(crawl_id: int, site_ids, observed: dict[int, dict[str, dict]]) -> dict[int, SiteVariety]:
    names = dict(Site.objects.filter(pk__in=site_ids).values_list("pk", "name"))
    return {site_id: site_variety(names[site_id], observed.get(site_id, {})) for site_id in site_ids if site_id in names}


def settle_site_languages(crawl_id: int, site_id: int) -> SiteVariety:
    """Decide the site's variety and store it: corrected page labels and the SiteLanguage row."""
    decisions = settle_sites_languages(crawl_id, [site_id])
    if site_id not in decisions:
        raise Site.DoesNotExist(f"no Site with id {site_id}")
    return decisions[site_id]


def settled_sites(crawl_id: int) -> set[int]:
    """The sites whose SiteLanguage row counted every page the site has in the crawl now: settling
    them again would write nothing (the decision reads only their pages' own evidence), so a
    crawl-wide pass leaves them as they are."""
    counts = dict(Page.objects.filter(crawl_id=crawl_id).order_by().values("site_id")
                  .annotate(n=Count("id")).values_list("site_id", "n"))
    return {site_id for site_id, pages in SiteLanguage.objects.filter(crawl_id=crawl_id).values_list("site_id", "pages")
            if counts.get(site_id) == pages}


def stored_label(language: str | None, script: str | None) -> tuple[str, str]:
    """A page's (language, script) as Page's columns hold it."""
    return (language or "")[:16], (script or "")[:8]


def settle_sites_languages(crawl_id: int, site_ids) -> dict[int, SiteVariety]:
    """settle_site_languages for many sites in a handful of statements (scoring settles a batch of
    tiny sites at once). Only page labels that differ and SiteLanguage rows whose values changed are
    written: a re-run writes nothing."""
    site_ids = sorted(set(site_ids))
    observed, stored_labels = _observations_and_labels(crawl_id, site_ids)
    decisions = _decisions(crawl_id, site_ids, observed)
    by_label: dict[tuple[str, str], list[int]] = defaultdict(list)
    for decision in decisions.values():
        for key, (language, script) in decision.page_languages.items():
            label = stored_label(language, script)
            if stored_labels.get(int(key)) != label:  # as read: most pages are settled already
                by_label[label].append(int(key))
    # As JSON reads them back (tuples become lists), so an unchanged decision compares equal.
    wanted = {site_id: dict(variety=d.variety or "", scores=_as_json(d.scores), evidence=_as_json(d.as_evidence()),
                            pages=len(d.page_languages), pages_corrected=len(d.corrected))
              for site_id, d in decisions.items()}
    with transaction.atomic():
        for (language, script), ids in by_label.items():
            # only rows whose stored label differs: a re-run writes nothing
            (Page.objects.filter(pk__in=ids).exclude(language=language, script=script)
             .update(language=language, script=script))
        _store_site_languages(crawl_id, wanted)
    return decisions


def _as_json(value):
    return json.loads(json.dumps(value))


def _store_site_languages(crawl_id: int, wanted: dict[int, dict]) -> None:
    # decided_at moves only when the decision did; one UPDATE a chunk: a batch of growing sites changed
    # nearly every row, one statement each
    write_site_rows(SiteLanguage, crawl_id, wanted, "decided_at", ignore_conflicts=True)