"""Judged candidate pairs for the train job: a crawl whose pairs carry features that tell parallel
from not parallel, an improve evaluation over all of them, and one evaluator's answers from a truth."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from crawlweb.models import Crawl, Host, Page, Site
from evaluation.models import CandidatePair
from labeling.creation import create_evaluation
from labeling.models import Assignment, Judgment

PASSWORD = "a-long-password-1"


def page(crawl, site, host, url, language) -> Page:
    return Page.objects.create(crawl=crawl, site=site, host=host, url=url, final_url=url, status_code=200,
                               md5=f"{abs(hash(url)):032d}"[:32], language=language, text="text",
                               fetched_at=timezone.now(), content_type="text/html", charset="utf-8")


def make_pairs(truth: list[bool], *, informative: bool, filter_kept: list[bool], name: str = "c") -> Crawl:
    """One pair per truth value. Informative: a parallel pair has high Def. 9 similarity and its
    languages confirmed, a wrong one low similarity and one language twice; else every pair looks alike."""
    crawl = Crawl.objects.create(name=name)
    site = Site.objects.create(name=f"{name}.example.rs")
    host = Host.objects.create(name=f"{name}.example.rs", site=site)
    for i, (parallel, kept) in enumerate(zip(truth, filter_kept)):
        sr, en = (page(crawl, site, host, f"http://{name}.example.rs/{lang}/{i}.html", lang) for lang in ("sr", "en"))
        good = parallel if informative else True
        CandidatePair.objects.create(
            crawl=crawl, site=site, source_url=sr.url, target_url=en.url, source_page=sr, target_page=en,
            method="local", methods=["local"], kept=kept, reason="filter", has_pattern=True, score=0.5,
            similarity=(0.6 + 0.01 * (i % 7)) if good else (0.05 + 0.01 * (i % 5)), sim_same=0.3, sim_pattern=0.3,
            scores={"length_ratio": 1.1 if good else 2.5}, source_language="sr",
            target_language="en" if good else "sr", languages_confirmed=good)
    return crawl


def make_user(django_user_model, username: str, group: str):
    user = django_user_model.objects.create_user(username, f"{username}@example.org", PASSWORD)
    user.groups.add(Group.objects.get_or_create(name=group)[0])  # transactional tests flush the data migration
    return user


@pytest.fixture
def people(db, django_user_model):
    return {"admin": make_user(django_user_model, "alice", "admins"),
            "ana": make_user(django_user_model, "ana", "evaluators"),
            "vera": make_user(django_user_model, "vera", "viewers")}


def judge_all(crawl: Crawl, evaluator, admin, truth_of, purpose: str = "improve", sample_size: int = 1000):
    """An evaluation of every pair of the crawl, each answered from the truth (yes / no)."""
    evaluation = create_evaluation(name=f"{purpose} {crawl.name}", what="pairs", crawls=[crawl], stratify_by="verdict",
                                   sample_size=sample_size, seed=5, overlap=0.0, purpose=purpose, evaluators=[evaluator],
                                   created_by=admin)
    for assignment in Assignment.objects.filter(evaluation=evaluation).select_related("item__pair"):
        Judgment.objects.create(assignment=assignment, verdict="yes" if truth_of(assignment.item.pair) else "no")
    return evaluation


def truth_by_url(truth: list[bool]):
    return lambda pair: truth[int(pair.source_url.rsplit("/", 1)[1].split(".")[0])]


@pytest.fixture
def sync_jobs(settings):
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "sync"
    # these tests judge 30 pairs (10 no): the promotion rule itself is what they check
    settings.TRAIN_PROMOTE_MIN_PER_LABEL = 5
    return settings
