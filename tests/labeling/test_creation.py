"""Creating an evaluation: the sample drawn from the crawl's population and its assignments."""
from collections import Counter

import pytest

from labeling.creation import create_evaluation
from labeling.models import Assignment, EvaluationItem
from tests.labeling.conftest import make_crawl

pytestmark = pytest.mark.django_db


def test_pairs_kept_and_removed_are_both_sampled_in_strata_of_method_and_filter_verdict(evaluation):
    strata = Counter(evaluation.items.values_list("stratum", flat=True))
    # pairs i = 0..11: even i hreflang, odd i local; removed when i % 3 == 0 (0, 6 and 3, 9)
    assert strata == {"hreflang · kept": 4, "hreflang · removed": 2, "local · kept": 4, "local · removed": 2}
    assert all(item.purpose == "estimate" and item.pair_id for item in evaluation.items.all())
    assert {item.stratum_size for item in evaluation.items.filter(stratum="hreflang · kept")} == {4}


def test_the_same_seed_draws_the_same_sample_again(evaluation, crawl, people):
    again = create_evaluation(name="again", what="pairs", crawls=[crawl], stratify_by="method", sample_size=5,
                              seed=11, overlap=0.5, purpose="estimate", evaluators=[people["ana"]])
    def sample(e):
        return list(e.items.order_by("position").values_list("pair_id", flat=True))
    assert sample(again) == sample(evaluation)


def test_half_of_the_items_go_to_both_evaluators_and_the_rest_evenly(evaluation, people):
    per_item = Counter(Assignment.objects.filter(evaluation=evaluation).values_list("item_id", flat=True))
    assert sorted(Counter(per_item.values()).items()) == [(1, 6), (2, 6)]
    loads = Counter(Assignment.objects.filter(evaluation=evaluation).values_list("evaluator__username", flat=True))
    assert loads == {"ana": 9, "bob": 9}
    orders = list(Assignment.objects.filter(evaluation=evaluation, evaluator=people["ana"])
                  .order_by("order").values_list("order", flat=True))
    assert orders == list(range(1, 10))


def test_improve_items_are_the_pairs_the_filter_is_least_sure_of(crawl, people):
    evaluation = create_evaluation(name="improve", what="pairs", crawls=[crawl], stratify_by="verdict",
                                   sample_size=2, seed=1, overlap=0.0, purpose="improve", evaluators=[people["ana"]])
    items = EvaluationItem.objects.filter(evaluation=evaluation)
    assert {i.purpose for i in items} == {"improve"}
    # similarity = i/12. Kept (i % 3 != 0): nearest 0.5 are i=5 (.417) and i=7 (.583).
    # Removed (i = 0, 3, 6, 9): i=6 (.5), then i=3 (.25) and i=9 (.75) tie, broken by the seed.
    kept = sorted(round(i.probability, 3) for i in items if i.stratum == "kept")
    assert kept == [0.417, 0.583]
    removed = sorted(round(i.probability, 3) for i in items if i.stratum == "removed")
    assert removed in ([0.25, 0.5], [0.5, 0.75])


def test_site_verdicts_and_links_can_be_sampled_too(crawl, people):
    sites = create_evaluation(name="sites", what="sites", crawls=[crawl], stratify_by="verdict", sample_size=5,
                              seed=1, overlap=0.0, purpose="estimate", evaluators=[people["ana"]])
    assert list(sites.items.values_list("stratum", flat=True)) == ["bilingual"]
    links = create_evaluation(name="links", what="links", crawls=[crawl, make_crawl(3, "other")], stratify_by="site",
                              sample_size=2, seed=1, overlap=0.0, purpose="estimate", evaluators=[people["ana"]])
    assert Counter(links.items.values_list("stratum", flat=True)) == {"crawl.example.rs": 2, "other.example.rs": 2}
    assert all(" → " in label for label in links.items.values_list("label", flat=True))


def test_links_drawn_by_the_predictors_verdict_to_improve_are_scored_once(crawl, people):
    from labeling import uncertainty

    asked = []
    source = uncertainty._SOURCES["links"]

    def counting(ids):
        asked.append(len(ids))
        return source(ids)

    uncertainty.register_probability_source("links", counting)
    try:
        evaluation = create_evaluation(name="links", what="links", crawls=[crawl], stratify_by="verdict",
                                       sample_size=2, seed=1, overlap=0.0, purpose="improve",
                                       evaluators=[people["ana"]])
    finally:
        uncertainty.register_probability_source("links", source)
    assert len(asked) == 1, "the verdict's probabilities are the uncertainty sample's"
    assert all(item.probability is not None for item in evaluation.items.all())
