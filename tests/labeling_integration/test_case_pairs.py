"""A crawl of the test web with the judging cases yields candidates wrong in each of Pupsniffer's
five error categories, and the injection pair, for evaluators to judge."""
import pytest

from crawlweb.models import Page
from evaluation.models import CandidatePair

pytestmark = pytest.mark.django_db


def test_every_case_pair_is_a_candidate_of_the_crawl(crawled_cases):
    pairs = {(p.source_url, p.target_url) for p in CandidatePair.objects.filter(crawl_id=crawled_cases.crawl_id)}
    wanted = {"injection": crawled_cases.truth["injection_pair"], **crawled_cases.truth["error_pairs"]}
    assert set(crawled_cases.truth["error_pairs"]) == {"language_id", "invalid_url", "same_language", "extraction",
                                                      "false_bilingual"}
    assert {key for key, urls in wanted.items() if tuple(urls) not in pairs} == set()


def test_the_injection_attempts_are_stored_as_text(crawled_cases):
    page = Page.objects.get(crawl_id=crawled_cases.crawl_id, url=crawled_cases.truth["injection_pair"][1])
    assert "<script>window.__injected" in page.title
    assert "</textarea><script>" in page.text and "{{ request.user.password }}" in page.text
