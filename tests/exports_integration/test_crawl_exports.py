"""A user downloads every export of a real crawl of the test web and reads it with the tool that
would read it downstream: csv, json, a TSV reader counting columns, an XML parser for TMX, warcio."""
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.http import FileResponse

from crawlweb.crawler.urls import normalize_url
from console.exports.catalog import EXPORTS
from crawlweb.models import Page
from crawlweb.services.network import close_warc_writers
from evaluation.models import CandidatePair, SiteCredibility
from frontier.models import SiteVerdict
from tests.evaluation_integration.helpers import site_name_of, truth_pairs
from tests.exports_integration import validators

pytestmark = pytest.mark.django_db


def _download(client, crawl_id, name, query=""):
    response = client.get(f"/crawls/{crawl_id}/exports/{name}{query}")
    assert response.status_code == 200, response
    assert response.streaming, "exports stream"
    assert f'filename="crawl-{crawl_id}-{name}"' in response["Content-Disposition"]
    return b"".join(response.streaming_content)


def _truth_pairs(crawled):
    return set().union(*(truth_pairs(s) for s in crawled.sites))


def test_sites_csv_holds_each_site_with_its_verdict_credibility_and_pages_by_language(crawled, staff_client):
    rows = {r["site"]: r for r in validators.read_sites_csv(_download(staff_client, crawled.crawl_id, "sites.csv"))}
    assert set(rows) == {site_name_of(s) for s in crawled.sites}
    for site in crawled.sites:
        row = rows[site_name_of(site)]
        assert row["verdict"] == ("bilingual" if site["bilingual_sr_en"] else "not bilingual"), site["host"]
        stored = SiteVerdict.objects.get(crawl_id=crawled.crawl_id, site__name=row["site"])
        assert row["kept_pairs"] == str(stored.evidence["combined"]["kept_pairs"])
        credibility = SiteCredibility.objects.get(crawl_id=crawled.crawl_id, site__name=row["site"])
        assert float(row["credibility"]) == pytest.approx(credibility.credibility, abs=1e-5)
        pages = Page.objects.filter(crawl_id=crawled.crawl_id, site__name=row["site"], status_code=200).count()
        by_language = dict(part.split("=") for part in row["pages_by_language"].split())
        assert int(row["pages"]) == pages == sum(int(n) for n in by_language.values())
    bilingual = [r for r in rows.values() if r["verdict"] == "bilingual"]
    assert bilingual and all({"sr-Latn", "en"} <= set(dict(p.split("=") for p in r["pages_by_language"].split()))
                             and "decided by" in r["evidence"] for r in bilingual)
    cyrillic = rows[site_name_of(next(s for s in crawled.sites if s["kind"] == "mono-sr-cyrl"))]
    assert cyrillic["pages_by_language"].startswith("sr-Cyrl=")


def test_sites_json_keeps_the_stored_evidence(crawled, staff_client):
    rows = validators.read_json(_download(staff_client, crawled.crawl_id, "sites.json"))
    assert len(rows) == len(crawled.sites)
    for row in rows:
        stored = SiteVerdict.objects.get(crawl_id=crawled.crawl_id, site__name=row["site"])
        assert row["evidence_detail"] == stored.evidence
        assert row["pages"] == sum(row["pages_by_language"].values())


def test_pairs_tsv_lists_every_candidate_with_the_filters_verdict(crawled, staff_client):
    rows = validators.read_pairs_tsv(_download(staff_client, crawled.crawl_id, "pairs.tsv"))
    stored = {(p.source_url, p.target_url): p for p in CandidatePair.objects.filter(crawl_id=crawled.crawl_id)}
    assert len(rows) == len(stored) > 0
    for row in rows:
        pair = stored[(row["src_url"], row["trg_url"])]
        assert row["verdict"] == ("kept" if pair.kept else "removed") and row["reason"] == pair.reason
        assert row["method"] == pair.method and float(row["score"]) == pytest.approx(pair.score, rel=1e-5)
        assert (row["src_lang"], row["trg_lang"]) == ("sr-Latn", "en")
    kept = validators.read_pairs_tsv(_download(staff_client, crawled.crawl_id, "pairs.tsv", "?kept=1"))
    assert {frozenset((r["src_url"], r["trg_url"])) for r in kept} == _truth_pairs(crawled)


def test_tmx_holds_aligned_paragraphs_of_every_kept_pair(crawled, staff_client):
    units = validators.read_tmx(_download(staff_client, crawled.crawl_id, "pairs.tmx"))
    kept = {(p.source_url, p.target_url): p for p in CandidatePair.objects.filter(crawl_id=crawled.crawl_id, kept=True)}
    assert {(u["x-source-url"], u["x-target-url"]) for u in units} == set(kept)
    for unit in units:
        pair = kept[(unit["x-source-url"], unit["x-target-url"])]
        assert unit["x-method"] == pair.method and float(unit["x-score"]) == pytest.approx(pair.score, rel=1e-5)
        assert unit["langs"] == ["sr-Latn", "en"] and unit["srclang"] == "sr-Latn"
        source_text = Page.objects.get(pk=pair.source_page_id).text
        assert all(part in source_text for part in unit["segs"][0].split(" ")), "segments come from the page text"


def test_segments_tsv_is_bicleaners_default_input(crawled, staff_client):
    rows = validators.read_segments_tsv(_download(staff_client, crawled.crawl_id, "segments.tsv"))
    assert rows and {frozenset((r["src_url"], r["trg_url"])) for r in rows} == _truth_pairs(crawled)
    assert all(r["src_text"] and r["trg_text"] for r in rows), "columns 3 and 4 hold the two texts"


def test_page_records_download_as_before(crawled, staff_client):
    lines = _download(staff_client, crawled.crawl_id, "pages.jsonl").decode().splitlines()
    assert len(lines) == Page.objects.filter(crawl_id=crawled.crawl_id).count()
    only_sr = validators.read_json(b"[" + b",".join(
        _download(staff_client, crawled.crawl_id, "pages.jsonl", "?language=sr").splitlines()) + b"]")
    assert only_sr and {r["language"] for r in only_sr} == {"sr"}


def test_warc_files_are_listed_and_read_by_warcio_while_written_and_when_finished(crawled, staff_client):
    page = staff_client.get(f"/crawls/{crawled.crawl_id}/").content.decode()
    open_files = sorted((crawled.warc_dir / f"crawl-{crawled.crawl_id}").glob("*.warc.gz.open"))
    assert open_files and open_files[0].name in page and "being written" in page
    response = staff_client.get(f"/crawls/{crawled.crawl_id}/exports/warc/{open_files[0].name}")
    while_written = validators.read_warc(b"".join(response.streaming_content))
    pages = Page.objects.filter(crawl_id=crawled.crawl_id)
    responses = {normalize_url(uri) for kind, uri in while_written if kind == "response"}
    assert {normalize_url(p.final_url) for p in pages} <= responses, "every stored page has its response record"
    assert while_written[0][0] == "warcinfo"

    close_warc_writers()  # the worker stops: the file gets its final name
    finished = sorted((crawled.warc_dir / f"crawl-{crawled.crawl_id}").glob("*.warc.gz"))
    assert [f.name + ".open" for f in finished] == [f.name for f in open_files]
    response = staff_client.get(f"/crawls/{crawled.crawl_id}/exports/warc/{finished[0].name}")
    assert isinstance(response, FileResponse)
    assert validators.read_warc(b"".join(response.streaming_content)) == while_written
    combined = validators.read_warc(_download(staff_client, crawled.crawl_id, "crawl.warc.gz"))
    assert combined == while_written


@pytest.mark.parametrize("format", list(EXPORTS))
def test_the_command_writes_each_export_that_its_reader_accepts(crawled, tmp_path, format):
    out = tmp_path / EXPORTS[format].file_name
    call_command("export", str(crawled.crawl_id), "--format", format, "--output", str(out))
    data = out.read_bytes()
    readers = {"sites-csv": validators.read_sites_csv, "sites-json": validators.read_json,
               "pairs-tsv": validators.read_pairs_tsv, "pairs-tmx": validators.read_tmx,
               "segments-tsv": validators.read_segments_tsv, "warc": validators.read_warc,
               "jsonl": lambda d: [validators.read_json(line) for line in d.splitlines()],
               "dc": lambda d: list(validators.ET.fromstring(d))}
    assert len(readers[format](data)) > 0


def test_the_command_names_a_missing_output_folder(crawled, tmp_path):
    with pytest.raises(CommandError, match="does not exist"):
        call_command("export", str(crawled.crawl_id), "--format", "sites-csv", "--output",
                     str(tmp_path / "missing" / "sites.csv"))


def test_the_crawl_page_links_every_export_for_staff(crawled, staff_client):
    page = staff_client.get(f"/crawls/{crawled.crawl_id}/").content.decode()
    for export in EXPORTS.values():
        assert f'href="/crawls/{crawled.crawl_id}/exports/{export.file_name}"' in page, export.format


def test_exports_are_for_staff_only(crawled, client, django_user_model):
    names = [e.file_name for e in EXPORTS.values()] + ["warc/any.warc.gz"]
    for name in names:
        response = client.get(f"/crawls/{crawled.crawl_id}/exports/{name}")
        assert response.status_code == 302 and "/login/" in response["Location"], name
    client.force_login(django_user_model.objects.create_user("reader", password="x", is_staff=False))
    response = client.get(f"/crawls/{crawled.crawl_id}/exports/sites.csv")  # signed in, not staff
    assert response.status_code == 403 and "sites.csv" not in response.get("Content-Disposition", "")


def test_unknown_exports_and_files_outside_the_listing_are_not_found(crawled, staff_client):
    assert staff_client.get(f"/crawls/{crawled.crawl_id}/exports/secrets.csv").status_code == 404
    assert staff_client.get(f"/crawls/{crawled.crawl_id}/exports/warc/other.warc.gz").status_code == 404
    assert staff_client.get(f"/crawls/{crawled.crawl_id}/exports/warc/..%2F..%2Fsecret.warc.gz").status_code == 404
    assert staff_client.get("/crawls/999999/exports/sites.csv").status_code == 404
