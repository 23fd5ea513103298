"""A small crawl with pages, candidate pairs (kept and removed), a site verdict and links, and
people in each group: enough to create evaluations and judge them through the real views."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from crawlweb.models import Crawl, Host, Link, Page, Site
from evaluation.models import CandidatePair
from frontier.models import SiteVerdict
from labeling.creation import create_evaluation

PASSWORD = "a-long-password-1"


def make_page(crawl, site, host, url, language, text, title="") -> Page:
    return Page.objects.create(crawl=crawl, site=site, host=host, url=url, final_url=url, status_code=200,
                               md5=f"{abs(hash(url)):032d}"[:32], language=language, script="Latn",
                               title=title, text=text, fetched_at=timezone.now(), content_type="text/html",
                               charset="utf-8")


def make_crawl(pairs: int = 12, name: str = "crawl") -> Crawl:
    crawl = Crawl.objects.create(name=name)
    site = Site.objects.create(name=f"{name}.example.rs")
    host = Host.objects.create(name=f"{name}.example.rs", site=site)
    for i in range(pairs):
        sr = make_page(crawl, site, host, f"http://{name}.example.rs/sr/{i}.html", "sr",
                       f"Naslov {i}\nPrvi pasus stranice broj {i}.\nDrugi pasus.", title=f"Strana {i}")
        en = make_page(crawl, site, host, f"http://{name}.example.rs/en/{i}.html", "en",
                       f"Title {i}\nThe first paragraph of page number {i}.\nSecond paragraph.", title=f"Page {i}")
        CandidatePair.objects.create(crawl=crawl, site=site, source_url=sr.url, target_url=en.url, source_page=sr,
                                     target_page=en, method="local" if i % 2 else "hreflang", kept=i % 3 != 0,
                                     similarity=i / pairs, has_pattern=True, pattern_source_unit="sr",
                                     pattern_target_unit="en", source_language="sr", target_language="en")
        Link.objects.create(page=sr, target_url=en.url, url_as_linked=en.url, anchor_text="English")
    SiteVerdict.objects.create(crawl=crawl, site=site, page=Page.objects.filter(crawl=crawl).first(), bilingual=True,
                               evidence={"link_scores": [{"url": "http://x/", "score": 0.8}]})
    return crawl


def make_user(django_user_model, username: str, group: str | None):
    user = django_user_model.objects.create_user(username, f"{username}@example.org", PASSWORD)
    if group:
        user.groups.add(Group.objects.get_or_create(name=group)[0])  # a transactional test may have flushed it
    return user


@pytest.fixture
def people(db, django_user_model):
    return {"admin": make_user(django_user_model, "alice", "admins"),
            "ana": make_user(django_user_model, "ana", "evaluators"),
            "bob": make_user(django_user_model, "bob", "evaluators"),
            "vera": make_user(django_user_model, "vera", "viewers"),
            "nobody": make_user(django_user_model, "nobody", None)}


@pytest.fixture
def crawl(db):
    return make_crawl()


@pytest.fixture
def evaluation(crawl, people):
    return create_evaluation(name="pairs of crawl", what="pairs", crawls=[crawl], stratify_by="method",
                             sample_size=5, seed=11, overlap=0.5, purpose="estimate",
                             evaluators=[people["ana"], people["bob"]], created_by=people["admin"])


@pytest.fixture
def login(client):
    def as_user(user):
        client.force_login(user)
        return client
    return as_user
