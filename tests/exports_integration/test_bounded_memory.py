"""Exports stream: 20,000 pairs go out with a memory peak a list-building export would exceed."""
import tracemalloc

import pytest
from django.utils import timezone

from console.exports.catalog import EXPORTS
from crawlweb.models import Crawl, Host, Page, Site
from evaluation.models import CandidatePair

pytestmark = pytest.mark.django_db
ROWS = 20_000
BOUND = 4 * 1024 * 1024  # bytes; the whole TSV of ROWS pairs is about 7 MB


@pytest.fixture
def many_pairs():
    site = Site.objects.create(name="veliki.rs", registrable_domain="veliki.rs")
    crawl = Crawl.objects.create(name="big", page_budget=10)
    host = Host.objects.create(name="www.veliki.rs", site=site)
    page = Page.objects.create(crawl=crawl, site=site, host=host, url="http://www.veliki.rs/",
                               final_url="http://www.veliki.rs/", status_code=200, md5="0" * 32, language="sr",
                               script="Latn", fetched_at=timezone.now())
    base = "http://www.veliki.rs/arhiva/2026/novembar/" + "clanak-" * 8
    CandidatePair.objects.bulk_create(
        [CandidatePair(crawl=crawl, site=site, source_url=f"{base}{n}.sr.html", target_url=f"{base}{n}.en.html",
                       source_page=page if n == 0 else None, method="local", score=0.5, similarity=0.25,
                       kept=n % 3 != 0, reason="bilingual similarity and content check passed",
                       source_language="sr", target_language="en")
         for n in range(ROWS)], batch_size=2000)
    return crawl


def _peak(consume) -> int:
    tracemalloc.start()
    try:
        consume()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_pairs_export_streams_in_bounded_memory(many_pairs):
    export = EXPORTS["pairs-tsv"]
    lines = []

    def stream():
        lines.append(sum(chunk.count(b"\n") for chunk in export.chunks(many_pairs)))

    def build_a_list():  # what a non-streaming export would do: the whole file in memory
        lines.append(b"".join(list(export.chunks(many_pairs))).count(b"\n"))

    streamed, listed = _peak(stream), _peak(build_a_list)
    assert lines == [ROWS + 1, ROWS + 1], "header and every pair"
    assert streamed < BOUND < listed, f"streamed peak {streamed} B, list-building peak {listed} B"
