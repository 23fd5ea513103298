"""The report's readings: an honest interval for the stratified estimate at 0 and 1 (Wilson at the
effective sample size, labeling.estimates) and Landis & Koch's word for each kappa."""
import json

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from crawlweb.models import Crawl, Site
from evaluation.models import CandidatePair
from labeling.agreement import kappa_reading
from labeling.models import Assignment, Evaluation, EvaluationItem, Judgment
from tests.labeling.report_fixture import build_evaluation


@pytest.mark.parametrize("kappa, word", [(None, "undefined"), (-0.05, "poor"), (0.0, "slight"), (0.2, "slight"),
                                         (0.21, "fair"), (0.4, "fair"), (0.5, "moderate"), (0.6, "moderate"),
                                         (0.61, "substantial"), (0.8, "substantial"), (0.81, "almost perfect"),
                                         (1.0, "almost perfect")])
def test_landis_and_koch_bands(kappa, word):
    assert kappa_reading(kappa) == word


def all_correct_evaluation(judged: int = 40, population: int = 1000) -> Evaluation:
    ana = User.objects.create_user("ana", password="pw-ana")
    ana.groups.add(Group.objects.get(name="evaluators"))
    crawl, site = Crawl.objects.create(name="c"), Site.objects.create(name="primer.rs")
    evaluation = Evaluation.objects.create(name="All right", seed=1)
    evaluation.evaluators.add(ana)
    for i in range(judged):
        pair = CandidatePair.objects.create(crawl=crawl, site=site, method="local", kept=True,
                                            source_url=f"http://primer.rs/sr/{i}", target_url=f"http://primer.rs/en/{i}")
        item = EvaluationItem.objects.create(evaluation=evaluation, pair=pair, label=f"p{i}", stratum="local · kept",
                                             stratum_size=population, position=i)
        assignment = Assignment.objects.create(evaluation=evaluation, item=item, evaluator=ana, order=i + 1)
        Judgment.objects.create(assignment=assignment, verdict="yes")
    return evaluation


@pytest.mark.django_db
def test_all_correct_over_40_items_reads_an_interval_with_a_width(client, django_user_model):
    evaluation = all_correct_evaluation()
    client.force_login(django_user_model.objects.create_superuser("root", "r@example.org", "pw-root-long-1"))
    page = client.get(reverse("labeling_report:report", args=[evaluation.pk])).content.decode()
    estimate = page.split('<p class="estimate">')[1].split("</p>")[0]
    # n* = 1/((1 − 40/1000)/40) = 41.67; low = n*/(n* + z²) = 0.9156
    assert "1.000</strong>" in estimate and "95 % interval 0.916 – 1.000" in estimate
    assert "effective sample size 41.7" in estimate and "1.000 – 1.000" not in estimate
    doc = json.loads(client.get(reverse("labeling_report:report_download", args=[evaluation.pk, "json"])).content)
    assert doc["estimate"]["low"] == pytest.approx(0.915587, abs=1e-6) and doc["estimate"]["effective_n"] == pytest.approx(41.6667, abs=1e-4)


@pytest.mark.django_db
def test_a_census_says_it_is_exact(client, django_user_model):
    evaluation = all_correct_evaluation(judged=5, population=5)
    client.force_login(django_user_model.objects.create_superuser("root", "r@example.org", "pw-root-long-1"))
    page = client.get(reverse("labeling_report:report", args=[evaluation.pk])).content.decode()
    assert "every stratum judged whole: exact" in page
    doc = json.loads(client.get(reverse("labeling_report:report_download", args=[evaluation.pk, "json"])).content)
    assert doc["estimate"]["effective_n"] is None and doc["estimate"]["low"] == doc["estimate"]["high"] == 1.0


@pytest.mark.django_db
def test_each_kappa_has_its_reading_on_the_report_and_in_the_json(client):
    fixture = build_evaluation()
    client.force_login(fixture["admin"])
    page = client.get(reverse("labeling_report:report", args=[fixture["evaluation"].pk])).content.decode()
    agreement = page.split('id="agreement"')[1].split("</section>")[0]
    ana_bo = agreement.split("<td>ana / bo</td>")[1].split("</tr>")[0]
    # p_o 0.6, p_e 0.44: κ = 0.16/0.56 = 0.286, fair
    assert "0.286" in ana_bo and '<td class="reading">fair</td>' in ana_bo
    assert "Reading (Landis &amp; Koch)" in agreement
    doc = json.loads(client.get(reverse("labeling_report:report_download", args=[fixture["evaluation"].pk, "json"])).content)
    cohen = next(c for c in doc["agreement"]["cohen"] if c["evaluators"] == ["ana", "bo"])
    assert cohen["reading"] == "fair"
