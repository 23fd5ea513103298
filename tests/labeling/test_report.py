"""The report of the fixture evaluation (tests/labeling/report_fixture.py) equals the figures
worked out by hand, on the page and in its downloads; and the items behind the numbers."""
import csv
import io
import json

import pytest
from django.urls import reverse

from tests.labeling.report_fixture import build_evaluation

pytestmark = pytest.mark.django_db


@pytest.fixture
def fixture():
    return build_evaluation()


def download(client, who, name, pk, fmt):
    client.force_login(who)
    response = client.get(reverse(f"labeling_report:{name}", args=[pk, fmt]))
    assert response.status_code == 200, response.content[:300]
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_report_figures_equal_the_hand_computed_ones(client, fixture):
    doc = json.loads(download(client, fixture["viewer"], "report_download", fixture["evaluation"].pk, "json"))
    # 11 items: 10 estimate, 1 improve; decided estimate items: all but i10 (undecided) = 9.
    assert (doc["items"], doc["estimate_items"], doc["improve_items"], doc["decided"], doc["undecided"]) == (11, 10, 1, 9, 1)
    strata = {s["name"]: s for s in doc["strata"]}
    # hreflang · kept: i1 i2 i4 correct, i3 wrong → 3/4; Wilson(3, 4) = 0.3006 … 0.9544
    assert (strata["hreflang · kept"]["correct"], strata["hreflang · kept"]["judged"]) == (3, 4)
    assert strata["hreflang · kept"]["low"] == pytest.approx(0.3006, abs=1e-4)
    assert strata["hreflang · kept"]["high"] == pytest.approx(0.9544, abs=1e-4)
    # local · kept: i6 (adjudicated yes) and i8 correct, i5 wrong, i7 partial → 2/4 (the improve item i11 is not counted)
    assert (strata["local · kept"]["correct"], strata["local · kept"]["judged"], strata["local · kept"]["population"]) == (2, 4, 300)
    assert strata["local · kept"]["low"] == pytest.approx(0.1500, abs=1e-4)
    # local · removed: i9 wrong, i10 undecided → 0/1
    assert (strata["local · removed"]["correct"], strata["local · removed"]["judged"]) == (0, 1)
    # Stratified over the kept strata: W = 100/400, 300/400;
    # p = 0.25·0.75 + 0.75·0.5 = 0.5625
    # Var = 0.0625·0.75·0.25/4·(1 − 4/100) + 0.5625·0.5·0.5/4·(1 − 4/300) = 0.0028125 + 0.0346875 = 0.0375
    # SE = 0.193649, 95 %: 0.5625 ± 0.379546 → 0.182955 … 0.942045
    estimate = doc["estimate"]
    assert estimate["p"] == pytest.approx(0.5625)
    assert estimate["standard_error"] == pytest.approx(0.0375 ** 0.5)
    # Wilson at n* = min(n_data, n_alloc): n_data = 0.5625·0.4375/0.0375 = 6.5625,
    # n_alloc = 1 / (0.0625·(1 − 4/100)/4 + 0.5625·(1 − 4/300)/4) = 1 / 0.15375 = 6.504065
    assert estimate["effective_n"] == pytest.approx(6.504065, abs=1e-6)
    assert (estimate["low"], estimate["high"]) == (pytest.approx(0.236114, abs=1e-6), pytest.approx(0.842471, abs=1e-6))
    assert (estimate["population"], estimate["judged"]) == (400, 8)
    methods = {m["name"]: (m["correct"], m["judged"], m["population"], m["population_estimated"]) for m in doc["methods"]}
    # stratified by method: each method's population is its kept stratum's (the report page's column was empty)
    assert methods == {"hreflang": (3, 4, 100, False), "local": (2, 4, 300, False)}


def test_error_breakdown_agreement_and_pace_equal_the_hand_computed_ones(client, fixture):
    doc = json.loads(download(client, fixture["viewer"], "report_download", fixture["evaluation"].pk, "json"))
    rows = {r["group"]: r for r in doc["error_categories"]}
    assert rows["hreflang"]["categories"] == {"language_id": 1}
    assert rows["local"]["categories"] == {"same_language": 1, "partial": 1}
    assert (rows["all"]["judged"], rows["all"]["correct"], rows["all"]["partial"]) == (8, 5, 1)
    agreement = doc["agreement"]
    ana_bo = next(c for c in agreement["cohen"] if c["evaluators"] == ["ana", "bo"])
    # ana–bo on i1 i5 i6 i8 i10: (y,y) (n,n) (y,n) (y,y) (y,n): p_o = 3/5;
    # ana yes 4/5, bo yes 2/5: p_e = 0.8·0.4 + 0.2·0.6 = 0.44; κ = 0.16/0.56 = 0.285714
    assert (ana_bo["items"], ana_bo["observed"], ana_bo["expected"]) == (5, pytest.approx(0.6), pytest.approx(0.44))
    assert ana_bo["kappa"] == pytest.approx(0.16 / 0.56)
    # ana–cy and bo–cy share only i8, all yes: κ undefined (p_e = 1).
    assert [c["kappa"] for c in agreement["cohen"] if "cy" in c["evaluators"]] == [None, None]
    # pooled: p̄_o = (5·0.6 + 1 + 1)/7 = 5/7, p̄_e = (5·0.44 + 1 + 1)/7 = 0.6; κ = (5/7 − 0.6)/0.4 = 0.285714
    assert agreement["cohen_pooled"]["kappa"] == pytest.approx((5 / 7 - 0.6) / 0.4)
    # Fleiss: only i8 had three evaluators, all yes: one item, κ undefined.
    assert [(f["raters_per_item"], f["items"], f["kappa"]) for f in agreement["fleiss"]] == [(3, 1, None)]
    pace = doc["judgments_per_minute"]
    # ana: 9 judgments, 10 s for the first + 8 gaps of 10 s = 90 s → 6 per minute
    assert (pace["ana"]["judgments"], pace["ana"]["working_seconds"], pace["ana"]["per_minute"]) == (9, 90.0, pytest.approx(6.0))
    # bo: 7 judgments, gaps 20 20 600→300 20 20 20 = 400 s → 7/(400/60) = 1.05 per minute
    assert pace["bo"]["per_minute"] == pytest.approx(1.05)


def test_report_page_shows_the_figures_and_links_to_their_items(client, fixture):
    client.force_login(fixture["viewer"])
    pk = fixture["evaluation"].pk
    page = client.get(reverse("labeling_report:report", args=[pk])).content.decode()
    assert "0.563" in page and "0.236" in page and "0.842" in page  # the estimate (floatformat 3)
    assert "0.286" in page  # Cohen's κ ana / bo
    assert "<svg" in page and "Stratified estimate" in page
    methods = page.split('<section class="panel" id="methods">', 1)[1].split("</section>", 1)[0]
    populations = [row.split('<td class="num">', 2)[1].split("</td>", 1)[0] for row in methods.split("<tr>")[2:]]
    assert populations == ["100", "300"], methods  # hreflang, local: the column was empty
    items_url = reverse("labeling_report:items", args=[pk])
    assert f"{items_url}?stratum=hreflang+%C2%B7+kept&amp;outcome=correct&amp;estimate=1" in page


def test_items_behind_a_number_are_exactly_the_counted_ones(client, fixture):
    client.force_login(fixture["admin"])
    url = reverse("labeling_report:items", args=[fixture["evaluation"].pk])
    page = client.get(url, {"stratum": "local · kept", "estimate": "1"}).content.decode()
    shown = {key for key in fixture["items"] if f">{key}: " in page}
    assert shown == {"i5", "i6", "i7", "i8"}  # not the improve item i11
    page = client.get(url, {"estimate": "1", "positive": "1", "outcome": "wrong", "category": "language_id"}).content.decode()
    assert {key for key in fixture["items"] if f">{key}: " in page} == {"i3"}


def test_an_admin_who_judges_too_never_sees_the_verdict_of_an_item_still_to_judge(client, fixture):
    fixture["evaluation"].evaluators.add(fixture["admin"])
    i2 = fixture["items"]["i2"]  # ana said yes; the admin is given it too and has not judged it
    from labeling.models import Assignment
    Assignment.objects.create(evaluation=fixture["evaluation"], item=i2, evaluator=fixture["admin"], order=1)
    client.force_login(fixture["admin"])
    page = client.get(reverse("labeling_report:items", args=[fixture["evaluation"].pk]), {"stratum": "hreflang · kept"}).content.decode()
    row_i2 = page.split(f'id="item-{i2.pk}"')[1].split("</tr>")[0]
    assert "yours to judge first" in row_i2 and "tone-yes" not in row_i2 and "ana: yes" not in row_i2
    row_i1 = page.split(f'id="item-{fixture["items"]["i1"].pk}"')[1].split("</tr>")[0]
    assert "tone-yes" in row_i1 and "ana: yes" in row_i1  # not the admin's to judge: shown


def test_report_csv_parses_and_matches_the_json(client, fixture):
    text = download(client, fixture["viewer"], "report_download", fixture["evaluation"].pk, "csv").decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    stratum = next(r for r in rows if r["section"] == "stratum" and r["name"] == "hreflang · kept")
    assert (stratum["population"], stratum["judged"], stratum["correct"], float(stratum["value"])) == ("100", "4", "3", 0.75)
    estimate = next(r for r in rows if r["section"] == "estimate")
    assert float(estimate["value"]) == pytest.approx(0.5625)
    assert {r["section"] for r in rows} >= {"method", "error_category", "cohen_kappa", "fleiss_kappa", "judgments_per_minute"}


def test_judgment_downloads_parse_and_are_for_admins_while_open(client, fixture):
    pk = fixture["evaluation"].pk
    text = download(client, fixture["admin"], "judgments_download", pk, "csv").decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 17  # 17 judgments; every item was judged at least once
    i6 = [r for r in rows if r["label"].startswith("i6:")]
    assert {(r["evaluator"], r["verdict"]) for r in i6} == {("ana", "yes"), ("bo", "no")}
    assert {r["final_source"] for r in i6} == {"adjudication"}
    assert len(json.loads(download(client, fixture["admin"], "judgments_download", pk, "json"))) == 17
    client.force_login(fixture["viewer"])
    assert client.get(reverse("labeling_report:judgments_download", args=[pk, "csv"])).status_code == 403
    fixture["evaluation"].state = "closed"
    fixture["evaluation"].save(update_fields=["state"])
    assert client.get(reverse("labeling_report:judgments_download", args=[pk, "csv"])).status_code == 200


def test_unknown_download_format_is_refused(client, fixture):
    client.force_login(fixture["viewer"])
    assert client.get(reverse("labeling_report:report_download", args=[fixture["evaluation"].pk, "xls"])).status_code == 404


def test_an_evaluation_without_judgments_reports_nothing_yet(client, fixture):
    from labeling.models import Evaluation
    empty = Evaluation.objects.create(name="Empty", seed=1)
    client.force_login(fixture["viewer"])
    page = client.get(reverse("labeling_report:report", args=[empty.pk])).content.decode()
    assert "Nothing judged yet." in page
    doc = json.loads(download(client, fixture["viewer"], "report_download", empty.pk, "json"))
    assert doc["estimate"]["p"] is None and doc["agreement"]["cohen"] == []
