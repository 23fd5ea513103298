"""update_columns: each row given is written once with its changed columns; the other rows and columns stay."""
import pytest
from django.utils import timezone

from crawlweb.models import Crawl, Host, Page, Site
from crawlweb.services.bulk_rows import update_columns
from evaluation.models import CandidatePair

pytestmark = pytest.mark.django_db


def _pairs(count: int) -> list[CandidatePair]:
    crawl = Crawl.objects.create(name="c")
    site = Site.objects.create(name="c.example.rs")
    host = Host.objects.create(name="c.example.rs", site=site)
    rows = []
    for i in range(count):
        url = f"http://c.example.rs/{i}.html"
        page = Page.objects.create(crawl=crawl, site=site, host=host, url=url, final_url=url, status_code=200,
                                   md5=f"{i:032d}", language="sr", fetched_at=timezone.now())
        rows.append(CandidatePair.objects.create(
            crawl=crawl, site=site, source_url=url, target_url=url + "?en", source_page=page,
            similarity=0.5, scores={"sim": 0.5}, reason="kept", kept=True))
    return rows


def test_each_column_is_written_for_its_own_rows_only():
    first, second, third = _pairs(3)
    update_columns(CandidatePair, {
        "similarity": {first.pk: None, second.pk: 0.25},  # a NULL beside a float
        "scores": {second.pk: {"sim": 0.25, "script": "latn"}},
        "source_page": {third.pk: None},
        "kept": {first.pk: False},
    })
    rows = {p.pk: p for p in CandidatePair.objects.all()}
    assert rows[first.pk].similarity is None and rows[first.pk].kept is False
    assert rows[first.pk].scores == {"sim": 0.5} and rows[first.pk].source_page_id == first.source_page_id
    assert rows[second.pk].similarity == 0.25 and rows[second.pk].scores == {"sim": 0.25, "script": "latn"}
    assert rows[second.pk].kept is True
    assert rows[third.pk].source_page_id is None and rows[third.pk].similarity == 0.5


def test_a_column_of_nulls_only_and_batches_smaller_than_the_rows():
    rows = _pairs(5)
    update_columns(CandidatePair, {"similarity": {row.pk: None for row in rows},
                                   "reason": {row.pk: f"r{row.pk}" for row in rows}}, batch_size=2)
    assert all(p.similarity is None and p.reason == f"r{p.pk}" for p in CandidatePair.objects.all())


def test_a_row_is_written_once_whatever_the_number_of_its_changed_columns():
    """Each UPDATE of a row leaves a dead copy for vacuum: three columns, one statement."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    first, second = _pairs(2)
    with CaptureQueriesContext(connection) as queries:
        update_columns(CandidatePair, {"similarity": {first.pk: 0.1, second.pk: 0.2},
                                       "reason": {first.pk: "r1"}, "kept": {second.pk: False}})
    assert [q["sql"].split()[0] for q in queries] == ["UPDATE"]
    rows = {p.pk: p for p in CandidatePair.objects.all()}
    assert (rows[first.pk].similarity, rows[first.pk].reason, rows[first.pk].kept) == (0.1, "r1", True)
    assert (rows[second.pk].similarity, rows[second.pk].reason, rows[second.pk].kept) == (0.2, "kept", False)
