"""Site verdicts and links are judged through the same card with their own keys; stored copies."""
import pytest
from django.urls import reverse

from labeling.creation import create_evaluation
from labeling.models import Assignment, Judgment

pytestmark = pytest.mark.django_db


def evaluation_of(what, crawl, people):
    return create_evaluation(name=what, what=what, crawls=[crawl], stratify_by="verdict", sample_size=3, seed=2,
                             overlap=0.0, purpose="estimate", evaluators=[people["ana"]])


def test_a_site_card_asks_whether_the_site_is_bilingual(login, people, crawl):
    evaluation = evaluation_of("sites", crawl, people)
    client = login(people["ana"])
    body = client.get(reverse("labeling:judge", args=[evaluation.pk])).content.decode()
    assert "Is this site bilingual in the crawl&#x27;s language pair?" in body
    assert "<kbd>y</kbd> Bilingual" in body and "<kbd>1</kbd>" not in body
    assert "crawl.example.rs" in body and "detector: bilingual" not in body  # an estimate: judged blind
    assignment = Assignment.objects.get(evaluation=evaluation)
    assert client.post(reverse("labeling:answer", args=[assignment.pk]), {"key": "1"}).status_code == 400
    client.post(reverse("labeling:answer", args=[assignment.pk]), {"key": "n"})
    assert Judgment.objects.get(assignment=assignment).verdict == "no"


def test_a_link_card_shows_the_link_and_both_pages(login, people, crawl):
    evaluation = evaluation_of("links", crawl, people)
    body = login(people["ana"]).get(reverse("labeling:judge", args=[evaluation.pk])).content.decode()
    assert "Does this link lead to this page&#x27;s translation?" in body
    assert "<q>English</q>" in body and "/en/" in body and "The first paragraph of page number" in body


def test_only_http_urls_become_links(login, people, crawl):
    from evaluation.models import CandidatePair
    CandidatePair.objects.filter(crawl=crawl).update(target_url="javascript:alert(1)")
    CandidatePair.objects.filter(crawl=crawl).first().target_page.delete()
    evaluation = create_evaluation(name="p", what="pairs", crawls=[crawl], stratify_by="verdict", sample_size=20,
                                   seed=2, overlap=0.0, purpose="estimate", evaluators=[people["ana"]])
    body = login(people["ana"]).get(reverse("labeling:judge", args=[evaluation.pk])).content.decode()
    assert 'href="javascript:' not in body and '<span class="bad-url">javascript:alert(1)</span>' in body


def test_a_page_without_a_stored_copy_is_404(login, people, evaluation, settings, tmp_path):
    settings.WARC_DIR = tmp_path
    assignment = Assignment.objects.filter(evaluation=evaluation, evaluator=people["ana"]).first()
    response = login(people["ana"]).get(reverse("labeling:copy", args=[assignment.pk, "source"]))
    assert response.status_code == 404
