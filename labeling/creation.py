"""Creating an evaluation: store it, draw its sample, give the items to its evaluators."""
from __future__ import annotations

from django.db import transaction

from crawlweb.models import Link
from evaluation.models import CandidatePair
from frontier.models import SiteVerdict
from labeling.models import Assignment, Evaluation, EvaluationItem
from labeling.populations import population
from labeling.sampling import assign, stratified_sample, uncertainty_sample

OBJECT_FIELD = {"pairs": "pair_id", "sites": "site_verdict_id", "links": "link_id"}


def _labels(what: str, ids: list[int]) -> dict[int, str]:
    if what == "pairs":
        rows = CandidatePair.objects.filter(pk__in=ids).values_list("id", "source_url", "target_url")
        return {pk: f"{source} ↔ {target}" for pk, source, target in rows}
    if what == "sites":
        return dict(SiteVerdict.objects.filter(pk__in=ids).values_list("id", "site__name"))
    rows = Link.objects.filter(pk__in=ids).values_list("id", "page__url", "target_url")
    return {pk: f"{page} → {target}" for pk, page, target in rows}


def draw(evaluation: Evaluation) -> list:
    """The evaluation's sample (sampling.Drawn rows) from its crawls' current population."""
    crawl_ids = sorted(evaluation.crawls.values_list("id", flat=True))
    improve = evaluation.purpose == Evaluation.Purpose.IMPROVE
    units = population(evaluation.what, crawl_ids, evaluation.stratify_by, with_probabilities=improve)
    sampler = uncertainty_sample if improve else stratified_sample
    return sampler(units, evaluation.sample_size, evaluation.seed)


@transaction.atomic
def create_evaluation(*, name, what, crawls, stratify_by, sample_size, seed, overlap, purpose, evaluators,
                      show_machine_signals=False, created_by=None) -> Evaluation:
    evaluation = Evaluation(name=name, what=what, stratify_by=stratify_by, sample_size=sample_size, seed=seed,
                            overlap=overlap, purpose=purpose, show_machine_signals=show_machine_signals,
                            created_by=created_by)
    evaluation.clean()  # an estimate that shows the machine's signals is refused, whoever calls
    evaluation.save()
    evaluation.crawls.set(crawls)
    evaluation.evaluators.set(evaluators)
    drawn = draw(evaluation)
    labels = _labels(what, [d.unit.key for d in drawn])
    items = EvaluationItem.objects.bulk_create(
        [EvaluationItem(evaluation=evaluation, **{OBJECT_FIELD[what]: d.unit.key}, label=labels.get(d.unit.key, "")[:4200],
                        stratum=d.unit.stratum[:300], stratum_size=d.stratum_size, purpose=purpose,
                        probability=d.unit.probability, position=d.position) for d in drawn], batch_size=1000)
    by_position = {item.position: item for item in items}
    evaluator_ids = sorted(user.pk for user in evaluators)
    order: dict[int, int] = {}
    rows = []
    for position, evaluator in assign(list(by_position), evaluator_ids, overlap, seed):
        order[evaluator] = order.get(evaluator, 0) + 1
        rows.append(Assignment(evaluation=evaluation, item=by_position[position], evaluator_id=evaluator,
                               order=order[evaluator]))
    Assignment.objects.bulk_create(rows, batch_size=1000)
    return evaluation
