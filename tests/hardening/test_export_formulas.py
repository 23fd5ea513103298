"""A crawled or typed text that a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first)
leaves in the CSV and TSV exports with a leading single quote (OWASP's advice on CSV injection); numbers
stay numbers, and `?raw=1` / `--raw` give the text as stored, for pipelines."""
import csv
import io
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from console.exports.tables import csv_lines, tsv_lines
from crawlweb.models import Page, Site
from evaluation.models import CandidatePair
from tests.labeling.conftest import make_crawl
from tests.labeling.report_fixture import build_evaluation

pytestmark = pytest.mark.django_db
FORMULA = '=HYPERLINK("http://evil.example/x","klik")'


@pytest.mark.parametrize("text", [FORMULA, "+1+2", "-2+3", "@SUM(A1:A2)", "\t=1+1", "\r=1+1"])
def test_a_csv_cell_a_spreadsheet_would_run_gets_a_leading_quote(text):
    rows = list(csv.reader(io.StringIO("".join(csv_lines(["text", "score"], [{"text": text, "score": -0.5}])))))
    assert rows[1] == ["'" + text, "-0.5"]
    raw = list(csv.reader(io.StringIO("".join(csv_lines(["text"], [{"text": text}], raw=True)))))
    assert raw[1] == [text]


def test_a_tsv_cell_a_spreadsheet_would_run_gets_a_leading_quote_and_numbers_stay():
    line = list(tsv_lines(["text", "score", "plain"], [{"text": "@cmd", "score": -1.25, "plain": "a=b"}]))[1]
    assert line == "'@cmd\t-1.25\ta=b\n"
    assert list(tsv_lines(["text"], [{"text": "@cmd"}], raw=True))[1] == "@cmd\n"


@pytest.fixture
def poisoned_crawl():
    crawl = make_crawl(pairs=2, name="formule")
    pair = CandidatePair.objects.get(crawl=crawl, kept=True)
    Page.objects.filter(pk=pair.source_page_id).update(text=f"{FORMULA}\nDrugi pasus.")
    Page.objects.filter(pk=pair.target_page_id).update(text="@SUM(1+1)\nSecond paragraph.")
    CandidatePair.objects.filter(crawl=crawl).update(reason="-2+3")
    Site.objects.filter(pk=pair.site_id).update(name="=1+2.example.rs")
    return crawl


def _download(client, crawl, name, query=""):
    response = client.get(f"/crawls/{crawl.pk}/exports/{name}{query}")
    assert response.status_code == 200
    return b"".join(response.streaming_content).decode()


def test_segments_pairs_and_sites_downloads_neutralize_formulas_unless_raw(admin_client, poisoned_crawl):
    segments = [line.split("\t") for line in _download(admin_client, poisoned_crawl, "segments.tsv").splitlines()]
    assert ["'" + FORMULA, "'@SUM(1+1)"] in [cells[2:4] for cells in segments]
    raw = [line.split("\t") for line in _download(admin_client, poisoned_crawl, "segments.tsv", "?raw=1").splitlines()]
    assert [FORMULA, "@SUM(1+1)"] in [cells[2:4] for cells in raw]
    pairs = list(csv.DictReader(io.StringIO(_download(admin_client, poisoned_crawl, "pairs.tsv")), delimiter="\t"))
    assert {row["reason"] for row in pairs} == {"'-2+3"} and {row["site"] for row in pairs} == {"'=1+2.example.rs"}
    sites = list(csv.DictReader(io.StringIO(_download(admin_client, poisoned_crawl, "sites.csv"))))
    assert [row["site"] for row in sites] == ["'=1+2.example.rs"]
    raw_sites = list(csv.DictReader(io.StringIO(_download(admin_client, poisoned_crawl, "sites.csv", "?raw=1"))))
    assert [row["site"] for row in raw_sites] == ["=1+2.example.rs"]


def test_the_export_command_neutralizes_formulas_unless_raw(poisoned_crawl):
    def export(*flags):
        out = StringIO()
        call_command("export", str(poisoned_crawl.pk), "--format", "pairs-tsv", *flags, stdout=out)
        return list(csv.DictReader(io.StringIO(out.getvalue()), delimiter="\t"))

    assert {row["reason"] for row in export()} == {"'-2+3"}
    assert {row["reason"] for row in export("--raw")} == {"-2+3"}


def test_judgments_csv_neutralizes_formulas_unless_raw(client):
    fixture = build_evaluation()
    item = fixture["items"]["i6"]
    item.label = FORMULA
    item.save(update_fields=["label"])
    client.force_login(fixture["admin"])
    url = reverse("labeling_report:judgments_download", args=[fixture["evaluation"].pk, "csv"])
    rows = list(csv.DictReader(io.StringIO(client.get(url).content.decode())))
    assert {row["label"] for row in rows if row["item"] == str(item.pk)} == {"'" + FORMULA}
    assert all(not row["label"].startswith(("=", "+", "-", "@")) for row in rows)
    raw = list(csv.DictReader(io.StringIO(client.get(url, {"raw": "1"}).content.decode())))
    assert {row["label"] for row in raw if row["item"] == str(item.pk)} == {FORMULA}
