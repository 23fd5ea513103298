"""The admin's form: margins shown live, errors named, the sample drawn and assigned on save."""
import re

import pytest
from django.urls import reverse

from labeling.models import Assignment, Evaluation

pytestmark = pytest.mark.django_db


def form_data(crawl, people, **changes):
    data = {"name": "Spring sample", "what": "pairs", "crawls": [crawl.pk], "stratify_by": "method",
            "sample_size": "3", "seed": "77", "overlap": "0.2", "purpose": "estimate",
            "evaluators": [people["ana"].pk, people["bob"].pk]}
    data.update(changes)
    return data


def test_the_form_offers_a_random_seed_and_the_defaults(login, people, crawl):
    body = login(people["admin"]).get(reverse("labeling:new")).content.decode()
    assert re.search(r'name="seed" value="\d+"', body)
    assert 'name="sample_size" value="385"' in body and 'name="overlap" value="0.2"' in body
    assert "ana" in body and "bob" in body and not re.search(r"\bvera\b", body)  # only people who may judge


def test_the_margins_follow_the_size_and_the_population(login, people, crawl):
    client = login(people["admin"])
    url = reverse("labeling:margins")
    body = client.get(url, {"what": "pairs", "crawls": [crawl.pk], "stratify_by": "verdict",
                            "sample_size": "4"}).content.decode()
    # kept: 8 pairs, removed: 4 → n = 4 of 8 (±1.96·√(.25/4)·√(4/7) = 37.0 %), 4 of 4 (± 0)
    assert re.search(r"<td>kept</td><td class=\"num\">4</td><td class=\"num\">8</td><td class=\"num\">± 37.0 %", body)
    assert re.search(r"<td>removed</td><td class=\"num\">4</td><td class=\"num\">4</td><td class=\"num\">± 0.0 %", body)
    assert "<th class=\"num\">8</th><th class=\"num\">12</th>" in body


def test_saving_draws_the_sample_and_assigns_it(login, people, crawl):
    response = login(people["admin"]).post(reverse("labeling:new"), form_data(crawl, people))
    assert response.status_code == 302
    evaluation = Evaluation.objects.get(name="Spring sample")
    assert (evaluation.seed, evaluation.sample_size, evaluation.created_by) == (77, 3, people["admin"])
    # strata of 4, 2, 4 and 2 pairs (method × filter verdict): 3 + 2 + 3 + 2 items
    assert evaluation.items.count() == 10
    assert Assignment.objects.filter(evaluation=evaluation).count() == 10 + 2  # 20 % judged twice


def test_errors_are_named_and_nothing_is_created(login, people, crawl):
    client = login(people["admin"])
    body = client.post(reverse("labeling:new"), form_data(crawl, people, sample_size="0", overlap="0.5",
                                                          evaluators=[people["ana"].pk])).content.decode()
    assert "Sample size per stratum: Ensure this value is greater than or equal to 1." in body
    assert "Overlap share: An overlap needs at least two evaluators" in body
    other = client.post(reverse("labeling:new"), form_data(crawl, people, what="links",
                                                           crawls=[crawl.pk + 999])).content.decode()
    assert "Crawls: Select a valid choice." in other
    assert not Evaluation.objects.exists()


def test_a_crawl_with_nothing_to_sample_is_refused_by_name(login, people, db):
    from crawlweb.models import Crawl
    empty = Crawl.objects.create(name="empty")
    body = login(people["admin"]).post(reverse("labeling:new"), form_data(empty, people)).content.decode()
    assert "The chosen crawls have no candidate pairs to sample." in body
