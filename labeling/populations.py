"""The population an evaluation samples from: every pair / site verdict / link of the chosen
crawls, each with its stratum, as sampling.Unit rows.

Candidate pairs kept *and* removed by the filter are both in the population, and the filter's
verdict is always part of a pair's stratum, so what the filter loses is measured too."""
from __future__ import annotations

from crawlweb.models import Link
from evaluation.models import CandidatePair
from frontier.models import SiteVerdict
from labeling.sampling import Unit
from labeling.uncertainty import probabilities

LINK_KINDS = ("a", "area", "alternate")  # the links a reader can follow (as the detector reads them)


def _filter_verdict(kept: bool) -> str:
    return "kept" if kept else "removed"


def pair_units(crawl_ids: list[int], stratify_by: str) -> list[Unit]:
    rows = CandidatePair.objects.filter(crawl_id__in=crawl_ids).values_list("id", "method", "kept", "site__name")
    strata = {"method": lambda method, kept, site: f"{method} · {_filter_verdict(kept)}",
              "verdict": lambda method, kept, site: _filter_verdict(kept),
              "site": lambda method, kept, site: f"{site} · {_filter_verdict(kept)}"}[stratify_by]
    return [Unit(pk, strata(method, kept, site)) for pk, method, kept, site in rows]


def site_units(crawl_ids: list[int], stratify_by: str) -> list[Unit]:
    rows = SiteVerdict.objects.filter(crawl_id__in=crawl_ids).values_list("id", "bilingual", "site__name")
    strata = {"method": lambda bilingual, site: "detector",
              "verdict": lambda bilingual, site: "bilingual" if bilingual else "not bilingual",
              "site": lambda bilingual, site: site}[stratify_by]
    return [Unit(pk, strata(bilingual, site)) for pk, bilingual, site in rows]


def link_units(crawl_ids: list[int], stratify_by: str) -> list[Unit]:
    rows = list(Link.objects.filter(page__crawl_id__in=crawl_ids, kind__in=LINK_KINDS)
                .values_list("id", "kind", "page__site__name"))
    if stratify_by == "verdict":  # the Link Predictor's decision at 0.5
        scores = probabilities("links", [pk for pk, _, _ in rows])
        return [Unit(pk, "predicted translation" if scores.get(pk, 0.0) >= 0.5 else "predicted other", scores.get(pk))
                for pk, _, _ in rows]
    return [Unit(pk, kind if stratify_by == "method" else site) for pk, kind, site in rows]


UNITS = {"pairs": pair_units, "sites": site_units, "links": link_units}


def population(what: str, crawl_ids: list[int], stratify_by: str, with_probabilities: bool = False) -> list[Unit]:
    units = UNITS[what](crawl_ids, stratify_by)
    # Links stratified by the Link Predictor's verdict come with their probability: not asked twice.
    if with_probabilities and (unscored := [u.key for u in units if u.probability is None]):
        scores = probabilities(what, unscored)
        units = [u if u.probability is not None else Unit(u.key, u.stratum, scores.get(u.key)) for u in units]
    return units
