"""The demo's crawl and evaluation: what `manage.py demo` shows a new user in its first minutes.

The crawl uses the project's strongest configuration for the test web: Barbosa et al.'s COBFC
(back/forward crawl with the BS Detector and the online link classifiers, backlinks from the crawl's
own graph and the test web's backlink service), the layered frontier's Language (M01) and Structure
(M03) modules, and Pupsniffer's pairing as scoring follow-ups. Once the crawl is finished and
scored, two evaluations of its candidate pairs (kept and removed) are drawn for two evaluators: an
*estimate* one (a random sample per method: it measures precision and never trains) and an *improve*
one (the pairs the classifiers are least sure of: its judgments are what "Train now" learns from).
"""
from __future__ import annotations

import time

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from crawlweb.models import Crawl, SeedList
from crawlweb.jobs import crawl_control
from evaluation.models import CandidatePair
from evaluation.services.pairing_state import pairing_state
from labeling.creation import create_evaluation
from labeling.forms import EvaluationForm
from labeling.models import Evaluation
from labeling.permissions import EVALUATORS

DESCRIPTION = "COBFC with the BS Detector, frontier modules M01 + M03, and pairing"
CONFIG = {
    "modules": {"M01": {"pair": "sr-en"}, "M03": {}},
    "backlinks": {"providers": [{"kind": "graph"},
                                {"kind": "http", "url_template": "http://backlinks.test/?url={url}"}]},
    # The test web answers at once; politeness stays on, at a short interval.
    "host_interval": 0.2,
}
SEED_LIST_NAME = "test web seeds"
EVALUATION_SAMPLE_PER_STRATUM = 25  # a first session of a few minutes, not the 385 of a real estimate
SCORED_TIMEOUT_S = 600  # after the crawl has ended: its last pairing pass and the jobs it queues


def ensure_demo_users(password: str) -> None:
    """`admin` (superuser) and `evaluator` (group evaluators), both with the demo password."""
    users = get_user_model().objects
    admin, _ = users.get_or_create(username="admin", defaults={"email": "admin@localhost"})
    admin.is_staff = admin.is_superuser = True
    admin.set_password(password)
    admin.save()
    evaluator, _ = users.get_or_create(username="evaluator", defaults={"email": "evaluator@localhost"})
    evaluator.set_password(password)
    evaluator.save()
    evaluator.groups.add(Group.objects.get_or_create(name=EVALUATORS)[0])


def start_demo_crawl(seed_urls: list[str], budget: int, *, host_interval: float | None = None) -> Crawl:
    config = dict(CONFIG) if host_interval is None else {**CONFIG, "host_interval": host_interval}
    seed_list, _ = SeedList.objects.get_or_create(
        name=SEED_LIST_NAME, defaults={"description": "Start URLs of the bundled test web."})
    seed_list.seeds.all().delete()
    seed_list.seeds.bulk_create([seed_list.seeds.model(seed_list=seed_list, url=url) for url in seed_urls])
    crawl = Crawl.objects.create(name="demo: test web", seed_list=seed_list, page_budget=budget, parallel_steps=1,
                                 strategy=Crawl.Strategy.COBFC, config=config)
    crawl_control.start_crawl(crawl)
    return crawl


def wait_for_pages(crawl: Crawl, pages: int, timeout: float = 300.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        crawl.refresh_from_db()
        if crawl.pages_fetched >= pages or crawl.state != Crawl.State.RUNNING:
            break
        time.sleep(0.5)
    return crawl.pages_fetched


def wait_until_pairs_final(crawl_id: int, timeout: float, *, crawl_timeout: float | None = None) -> None:
    """Wait while the crawl runs (at most ``crawl_timeout`` s, None: as long as it runs), then up to
    ``timeout`` s more for its pairs to be final: the whole pass after its end has run, and none of its
    scoring jobs waits (pairing_state.py). A crawl stopped by hand gets no such pass: its jobs done
    is enough. Raises TimeoutError saying what is missing; drawn earlier, an evaluation sampled
    whichever pairs the jobs had scored by then (a loaded machine's order)."""
    started = time.monotonic()
    while Crawl.objects.get(pk=crawl_id).state in (Crawl.State.RUNNING, Crawl.State.PAUSED):
        if crawl_timeout is not None and time.monotonic() - started > crawl_timeout:
            raise TimeoutError(f"crawl {crawl_id} still runs after {crawl_timeout:g} s")
        time.sleep(1)
    deadline = time.monotonic() + timeout
    while True:
        state = pairing_state(Crawl.objects.get(pk=crawl_id))
        if state.final or (state.crawl_state == Crawl.State.STOPPED and not state.jobs):
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"crawl {crawl_id}'s pairs are not final {timeout:g} s after it ended: "
                               f"{state.sentence()}")
        time.sleep(1)


def demo_evaluations_when_scored(crawl_id: int, timeout: float = SCORED_TIMEOUT_S, *,
                                 crawl_timeout: float | None = None) -> list:
    """Draw the demo's two evaluations of the crawl's pairs once they are final (wait_until_pairs_final),
    estimate first, then improve; [] when there is no pair. Running it twice draws nothing new."""
    wait_until_pairs_final(crawl_id, timeout, crawl_timeout=crawl_timeout)
    crawl = Crawl.objects.get(pk=crawl_id)
    if not CandidatePair.objects.filter(crawl=crawl).exists():
        return []
    return [_demo_evaluation(crawl, purpose) for purpose in (Evaluation.Purpose.ESTIMATE, Evaluation.Purpose.IMPROVE)]


def _demo_evaluation(crawl: Crawl, purpose: str) -> Evaluation:
    existing = crawl.evaluations.filter(purpose=purpose).order_by("id").first()
    if existing is not None:
        return existing
    judges = get_user_model().objects.filter(username__in=("admin", "evaluator")).order_by("username")
    name = {Evaluation.Purpose.ESTIMATE: f"Demo: pairs of crawl {crawl.pk}",
            Evaluation.Purpose.IMPROVE: f"Demo: pairs of crawl {crawl.pk} to train on"}[purpose]
    form = EvaluationForm({"name": name, "what": "pairs", "crawls": [crawl.pk],
                           "stratify_by": "method", "sample_size": EVALUATION_SAMPLE_PER_STRATUM, "seed": 1,
                           "overlap": 0.2, "purpose": purpose, "evaluators": [user.pk for user in judges]})
    if not form.is_valid():
        raise RuntimeError(f"the demo's {purpose} evaluation was refused: {form.errors.as_text()}")
    return create_evaluation(**form.cleaned_data)
