"""Crawled pages full of script-injection attempts (judging_cases.py, "injection": titles, anchors, URLs,
bodies and a pair of them), crawled for real and then opened in a real browser in every view that shows
crawled text. Each payload sets window.__injected and calls alert(): neither may ever happen."""
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

def test_no_injected_script_runs_in_any_view_of_crawled_text(page, live_server, staff_login, django_user_model, settings,
                                                             tmp_path,
                                                             case_web_server):
    from bench.support.hostile_cases import injection_views
    from crawlweb.models import Page
    from crawlweb.services.network import close_warc_writers
    from evaluation.models import CandidatePair
    from labeling.creation import create_evaluation
    from tests.evaluation_integration.helpers import crawl_sites

    settings.WARC_DIR = tmp_path / "warc"
    truth = case_web_server.truth()
    site = next(s for s in truth["sites"] if s["host"] == truth["judging_cases"]["site"])
    crawl = crawl_sites([site], budget=80)
    close_warc_writers()
    source_url, target_url = truth["judging_cases"]["injection_pair"]
    pair = CandidatePair.objects.get(crawl=crawl, source_url=source_url)
    injected_pages = list(Page.objects.filter(crawl=crawl, url__in=[source_url, target_url]))
    assert len(injected_pages) == 2

    views = injection_views(crawl, pair, injected_pages)

    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    staff_login()
    operator = django_user_model.objects.get(username="operator")
    create_evaluation(name="Injection", what="pairs", crawls=[crawl], stratify_by="verdict",
                      sample_size=50, seed=1, overlap=0.0, purpose="estimate", evaluators=[operator])
    views += ["/labeling/"]  # the judging card itself: tests/browser/test_labeling.py, with its stored copies
    shown_payload, ran = [], []
    for view in views:
        response = page.goto(live_server.url + view)
        assert response.status < 500, view
        page.wait_for_load_state("load")
        page.wait_for_timeout(150)  # onerror/onload handlers fire after the load
        if "__injected" in page.content() or "<script>" in page.locator("body").inner_text():
            shown_payload.append(view)
        if any(frame.evaluate("() => window.__injected !== undefined") for frame in page.frames):
            ran.append(view)
    assert ran == [] and dialogs == []
    # The payloads were on screen (as text), not filtered out of sight: the check above meant something.
    assert f"/crawls/{crawl.pk}/" in shown_payload and "/admin/crawlweb/link/" in shown_payload, shown_payload
    assert all(f"/admin/crawlweb/page/{p.pk}/change/" in shown_payload for p in injected_pages), shown_payload
