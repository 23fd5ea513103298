"""The current classifier's probability that an object is positive, for uncertainty sampling.

One small interface: ``register_probability_source(what, function)``; a source takes the ids of
the objects (pairs, site verdicts or links) and returns {id: probability}. The training app
registers its promoted classifiers here; until then the defaults below stand in:
pairs → the filter's Def. 9 similarity, sites → the detector's best link likelihood,
links → the shipped Link Predictor's probability.
"""
from __future__ import annotations

from typing import Callable, Iterable

from crawlweb.models import Link
from evaluation.models import CandidatePair
from frontier.classifiers.link_features import LinkContext
from frontier.classifiers.shipped_link_predictor import default_link_predictor
from frontier.models import SiteVerdict

ProbabilitySource = Callable[[list[int]], dict[int, float]]


def pair_similarity(ids: list[int]) -> dict[int, float]:
    rows = CandidatePair.objects.filter(pk__in=ids, similarity__isnull=False).values_list("id", "similarity")
    return {pk: min(1.0, max(0.0, sim)) for pk, sim in rows}


def detector_likelihood(ids: list[int]) -> dict[int, float]:
    found = {}
    for pk, evidence in SiteVerdict.objects.filter(pk__in=ids).values_list("id", "evidence"):
        scores = [s.get("score") for s in (evidence or {}).get("link_scores", []) if isinstance(s, dict)]
        scores = [s for s in scores if isinstance(s, (int, float))]
        if scores:
            found[pk] = float(max(scores))
    return found


def link_contexts(ids: Iterable[int]) -> dict[int, LinkContext]:
    """{link id: what the Link Predictor reads of it}, by id. Columns, not Link and Page rows: a page's
    row carries its whole text, and a crawl's links are scored by the thousand."""
    rows = (Link.objects.filter(pk__in=list(ids)).order_by("id")
            .values_list("id", "url_as_linked", "target_url", "anchor_text", "text_around", "img_alt", "img_src",
                         "hreflang", "page__final_url", "page__url"))
    return {pk: LinkContext(url=as_linked or target, anchor_text=anchor, text_around=around, img_alt=alt,
                            img_src=src, page_url=final_url or page_url, hreflang=hreflang)
            for pk, as_linked, target, anchor, around, alt, src, hreflang, final_url, page_url in rows}


def link_predictor_probability(ids: list[int]) -> dict[int, float]:
    return link_probabilities_by(default_link_predictor(), ids)


def link_probabilities_by(predictor, ids: list[int]) -> dict[int, float]:
    """{link id: ``predictor``'s probability that the link leads to its page's translation}."""
    contexts = link_contexts(ids)
    if not contexts:
        return {}
    return dict(zip(contexts, (float(score) for score in predictor.predict_proba(list(contexts.values())))))


_SOURCES: dict[str, ProbabilitySource] = {
    "pairs": pair_similarity, "sites": detector_likelihood, "links": link_predictor_probability}


def register_probability_source(what: str, source: ProbabilitySource) -> None:
    if what not in _SOURCES:
        raise ValueError(f"unknown kind of item {what!r}; expected one of {sorted(_SOURCES)}")
    _SOURCES[what] = source


def probabilities(what: str, ids: Iterable[int]) -> dict[int, float]:
    return _SOURCES[what](list(ids))
