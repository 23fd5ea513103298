"""Judged examples for training, read from the labeling app's final verdicts.

Only items sampled for the *improve* purpose are used. Items of *estimate* evaluations are the
ones precision is reported on: a classifier trained (or compared) on them would decide ``kept``
for exactly the items that measure it, and the reported precision would be its training fit,
not an estimate. So they are left out of both training and the comparison.

Label: "yes" → 1; "no" and "partial" (same page, body not fully translated: not a parallel pair
to keep) → 0; skipped, undecided (judges disagree, not adjudicated) or unjudged items are left out.
An object judged in several evaluations counts once, with its latest final verdict.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from evaluation.models import SiteCredibility
from frontier.classifiers.link_features import LinkContext
from labeling.models import EvaluationItem, Verdict
from labeling.uncertainty import detector_likelihood, link_contexts
from labeling.verdicts import final_verdict
from training.learn.features import filter_kept_after_one_to_one, pair_features
from evaluation.lexicon_in_use import lexicon_in_use
from training.services.site_lines import site_lines_of

LABELS = {Verdict.YES: 1, Verdict.NO: 0, Verdict.PARTIAL: 0}


@dataclass
class Judged:
    ids: list[int]
    labels: list[int]


def _labelled(field: str) -> dict[int, int]:
    """{object id: label} of the judged improve items that point at an object through ``field``."""
    # only items someone has judged or an admin has decided: a sample can hold thousands of links nobody judged
    decided = Q(assignments__judgment__isnull=False) | Q(adjudication__isnull=False)
    items = (EvaluationItem.objects.filter(decided, purpose=EvaluationItem.Purpose.IMPROVE, **{f"{field}__isnull": False})
             .distinct().select_related("adjudication").order_by("evaluation__created_at", "id"))
    found: dict[int, int] = {}
    for item in items:
        verdict = final_verdict(item)
        if verdict is not None and verdict.verdict in LABELS:
            found[getattr(item, f"{field}_id")] = LABELS[verdict.verdict]
    return found


@dataclass
class JudgedPairs(Judged):
    features: list[list[float]]
    filter_kept: list[int]
    sites: list[int]  # each pair's site: the comparison's folds keep a site whole


def judged_pairs() -> JudgedPairs:
    from evaluation.models import CandidatePair

    labels = _labelled("pair")
    pairs = list(CandidatePair.objects.filter(pk__in=labels).select_related("source_page", "target_page").order_by("id"))
    credibility = {(c, s): v for c, s, v in SiteCredibility.objects.filter(
        crawl_id__in={p.crawl_id for p in pairs}).values_list("crawl_id", "site_id", "credibility")}
    lines = site_lines_of(pairs)
    return JudgedPairs([p.pk for p in pairs], [labels[p.pk] for p in pairs],
                       [pair_features(p, credibility.get((p.crawl_id, p.site_id)), lines[p.pk], lexicon_in_use())
                        for p in pairs],
                       [int(filter_kept_after_one_to_one(p)) for p in pairs],
                       [p.site_id for p in pairs])


@dataclass
class JudgedLinks(Judged):
    links: list[LinkContext]
    sites: list[int | None]  # each link's page's site: the comparison's folds keep a site whole


def judged_links() -> JudgedLinks:
    from crawlweb.models import Link

    labels = _labelled("link")
    contexts = link_contexts(labels)
    sites = dict(Link.objects.filter(pk__in=list(contexts)).values_list("id", "page__site_id"))
    return JudgedLinks(list(contexts), [labels[pk] for pk in contexts], list(contexts.values()),
                       [sites[pk] for pk in contexts])


@dataclass
class JudgedSites(Judged):
    scores: list[float]


def judged_sites() -> JudgedSites:
    labels = _labelled("site_verdict")
    scores = detector_likelihood(list(labels))
    ids = sorted(pk for pk in labels if pk in scores)  # a verdict without link scores says nothing of t
    return JudgedSites(ids, [labels[pk] for pk in ids], [scores[pk] for pk in ids])
