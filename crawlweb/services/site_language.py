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

from collections import defaultdict

from django.db import transaction

from crawlweb.language.site_variety import SiteVariety, site_variety
from crawlweb.models import Page, Site, SiteLanguage


def site_observations(crawl_id: int, site_id: int) -> dict[str, dict]:
    """{page id (str): observation} of the site's stored pages. A page stored before pages kept
    their evidence counts with its stored label only."""
    observations = {}
    rows = Page.objects.filter(crawl_id=crawl_id, site_id=site_id).values_list(
        "pk", "language", "script", "language_evidence")
    for pk, language, script, evidence in rows:
        if isinstance(evidence, dict) and evidence.get("lang"):
            observations[str(pk)] = evidence
        else:
            observations[str(pk)] = {"lang": language or "und", "script": script or None}
    return observations


def decide_site_language(crawl_id: int, site_id: int) -> SiteVariety:
    """The decision for the site's stored pages, without writing anything."""
    site = Site.objects.get(pk=site_id)
    return site_variety(site.name, site_observations(crawl_id, site_id))


def settle_site_languages(crawl_id: int, site_id: int) -> SiteVariety:
    """Decide the site's variety and store it: corrected page labels and the SiteLanguage row."""
    decision = decide_site_language(crawl_id, site_id)
    by_label: dict[tuple[str, str], list[int]] = defaultdict(list)
    for key, (language, script) in decision.page_languages.items():
        by_label[(language or "", script or "")].append(int(key))
    with transaction.atomic():
        for (language, script), ids in by_label.items():
            # only rows whose stored label differs: a re-run writes nothing
            (Page.objects.filter(pk__in=ids).exclude(language=language, script=script)
             .update(language=language[:16], script=script[:8]))
        SiteLanguage.objects.update_or_create(crawl_id=crawl_id, site_id=site_id, defaults=dict(
            variety=decision.variety or "", scores=decision.scores, evidence=decision.as_evidence(),
            pages=len(decision.page_languages), pages_corrected=len(decision.corrected)))
    return decision
