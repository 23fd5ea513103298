"""The console's pages as an operator reads them in a real browser (issue 33, "Pages"): the crawl page
offers only the actions its state allows, lists pages stored after it was opened, explains its jargon
and folds its long sections; the site page keeps each evidence heading with its table and counts in
the singular; the pairs list pages, filters kept/removed and explains Sim; the report's error table
fits a 1,400 px window; the adjudication page shows both pages' text and marks the item the keys act on."""
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from crawlweb.models import Crawl, Host, Page, Site
from frontier.models import SiteVerdict
from labeling.creation import create_evaluation
from labeling.models import Assignment, Judgment
from tests.labeling.conftest import make_crawl, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _store_page(crawl: Crawl, n: int) -> Page:
    site, _ = Site.objects.get_or_create(name="later.example.rs")
    host, _ = Host.objects.get_or_create(name="later.example.rs", site=site)
    url = f"http://later.example.rs/{n}.html"
    return Page.objects.create(crawl=crawl, site=site, host=host, url=url, final_url=url, status_code=200,
                               md5=f"{n:032d}", fetched_at=timezone.now(), title=f"Stored later {n}")


def test_a_running_crawl_offers_pause_not_resume_and_lists_pages_stored_after_the_page_opened(staff_login, live_server):
    crawl = Crawl.objects.create(name="watched while running", state=Crawl.State.RUNNING)
    page = staff_login()
    page.goto(f"{live_server.url}/crawls/{crawl.pk}/")
    actions = page.locator("#crawl-actions button")
    expect(actions).to_have_text(["Pause", "Stop", "Re-harvest"])
    expect(page.locator("#recent-pages")).to_contain_text("No page stored yet")
    for n in range(4):
        _store_page(crawl, n)
    # the table follows the crawl without a reload: "No page yet" never stands beside 4 stored pages
    expect(page.locator("#recent-pages tbody tr")).to_have_count(4, timeout=15000)
    expect(page.locator("#recent-pages")).not_to_contain_text("No page")
    Crawl.objects.filter(pk=crawl.pk).update(state=Crawl.State.PAUSED)
    # the actions follow the state with the live panel (out of band), without a reload
    expect(actions).to_have_text(["Resume", "Stop", "Re-harvest"], timeout=15000)
    Crawl.objects.filter(pk=crawl.pk).update(state=Crawl.State.FINISHED)
    expect(actions).to_have_text(["Start again", "Re-harvest"], timeout=15000)


def test_the_crawl_page_explains_its_jargon_and_folds_its_long_sections(staff_login, live_server):
    from frontier.models import LayerPlacement, Target

    crawl = make_crawl(pairs=12)
    crawl.state = Crawl.State.FINISHED
    crawl.save()
    host = Host.objects.get(name="crawl.example.rs")
    for i, (origin, layer) in enumerate([("refill", "M01.L01"), ("forward", "NB.L03")]):
        target = Target.objects.create(crawl=crawl, url=f"http://crawl.example.rs/t{i}", host=host, site=host.site,
                                       origin=origin)
        LayerPlacement.objects.create(target=target, module=layer.split(".")[0], layer=int(layer[-1]), layer_id=layer,
                                      rule="test")
    page = staff_login()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/crawls/{crawl.pk}/")
    assert "Language module M01" in page.locator("#frontier-layers abbr", has_text="M01.L01").get_attribute("title")
    assert "Primary" in page.locator("#frontier-layers abbr", has_text="M01.L01").get_attribute("title")
    nb = page.locator("#frontier-layers abbr", has_text="NB.L03").get_attribute("title")
    assert "Naive Bayes" in nb and "Reserve" in nb
    refill = page.locator("#frontier-queues abbr", has_text="refill").get_attribute("title")
    assert "ran out of Targets" in refill
    page.click("text=What these words mean")
    expect(page.locator("dl.glossary")).to_contain_text("L01 Primary (fetched first)")
    page.click("text=What these words mean")
    # the configuration and the exports are one line each until opened
    for fold in ("#config-fold", "#exports-fold"):
        assert page.locator(fold).get_attribute("open") is None, fold
    page.click("#config-fold summary")
    expect(page.locator("#config-fold table.crawl-config")).to_be_visible()


def test_the_site_page_keeps_each_evidence_heading_beside_its_value_and_counts_one_page(staff_login, live_server):
    crawl = make_crawl(pairs=2)
    verdict = SiteVerdict.objects.get(crawl=crawl)
    pages = list(Page.objects.filter(crawl=crawl).order_by("id"))
    verdict.pages_downloaded = 1
    verdict.evidence = {
        "page": pages[0].url, "page_language": "sr", "languages": ["sr", "en"],
        "pages": [{"url": p.url, "language": p.language, "score": 0.9} for p in pages],
        "link_scores": [{"url": pages[1].url, "score": 0.97, "anchor": "English"}],
        "combined": {"page_languages": {"sr": 2, "en": 2}, "kept_pairs": 1, "decided_by": ["detector", "pages"]}}
    verdict.save()
    page = staff_login()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/crawls/{crawl.pk}/sites/{verdict.site_id}/")
    assert "1 page fetched by the detector" in page.locator("#verdict").inner_text()
    assert not re.search(r"\b1 pages\b", page.locator("main").inner_text())
    boxes = page.eval_on_selector_all(
        "#verdict > dl.evidence > dt",
        "dts => dts.map(dt => [dt.getBoundingClientRect(), dt.nextElementSibling.getBoundingClientRect()]"
        ".map(r => ({top: r.top, left: r.left, right: r.right})))")
    assert len(boxes) >= 6
    lefts = {round(dt["left"]) for dt, _ in boxes}
    assert len(lefts) == 1, f"every heading starts the same column, none trails a table: {lefts}"
    for dt, dd in boxes:
        assert abs(dd["top"] - dt["top"]) < 4 and dd["left"] >= dt["right"], "a value stands on its heading's row"


def test_the_pairs_list_pages_filters_kept_and_removed_and_explains_sim(staff_login, live_server):
    crawl = make_crawl(pairs=60)  # i % 3 == 0 removed: 20 removed, 40 kept
    page = staff_login()
    page.goto(f"{live_server.url}/pairs/crawls/{crawl.pk}/pairs/")
    rows = page.locator("#pair-list tbody tr")
    expect(rows).to_have_count(25)
    assert "of 3" in page.locator(".pager").first.inner_text()
    assert "Def. 9" in page.locator("#pair-list th abbr").get_attribute("title")
    assert "Sim_Same" in page.locator("#sim-explained").inner_text()
    page.select_option("select[name=kept]", "removed")
    page.click("text=Show")
    expect(rows).to_have_count(20)
    assert set(rows.locator("td:nth-child(7)").all_inner_texts()) == {"removed"}
    page.select_option("select[name=kept]", "kept")
    page.click("text=Show")
    expect(rows).to_have_count(25)
    page.locator(".pager a[rel=next]").first.click()
    expect(rows).to_have_count(15)  # the filter holds on the next page: 40 kept, 25 + 15
    assert set(rows.locator("td:nth-child(7)").all_inner_texts()) == {"kept"}
    assert "kept=kept" in page.url


def _judged_evaluation(django_user_model, overlap=1.0):
    admin = django_user_model.objects.get(username="operator")  # staff_login's superuser
    ana, bob = make_user(django_user_model, "ana", "evaluators"), make_user(django_user_model, "bob", "evaluators")
    crawl = make_crawl(pairs=8)
    evaluation = create_evaluation(name="Two judges", what="pairs", crawls=[crawl], stratify_by="method",
                                   sample_size=4, seed=3, overlap=overlap, purpose="estimate", evaluators=[ana, bob],
                                   created_by=admin)
    for assignment in Assignment.objects.filter(evaluation=evaluation):
        verdict = "yes" if assignment.evaluator == ana else "no"
        Judgment.objects.create(assignment=assignment, verdict=verdict,
                                category="" if verdict == "yes" else "false_bilingual")
    return evaluation


def test_the_adjudication_page_shows_both_pages_text_and_marks_the_item_the_keys_act_on(
        staff_login, live_server, django_user_model):
    page = staff_login()
    evaluation = _judged_evaluation(django_user_model)
    page.goto(f"{live_server.url}/labeling/{evaluation.pk}/disagreements/")
    target = page.locator(".disagreement.keys-target")
    expect(target).to_have_count(1)
    first = page.locator(".disagreement").first
    assert first.get_attribute("aria-current") == "true"
    assert "act on this item" in target.inner_text()
    # both pages' text, side by side as on the judging card
    rows = target.locator(".aligned .row")
    assert rows.count() >= 2
    assert "Prvi pasus stranice broj" in target.inner_text() and "The first paragraph of page number" in target.inner_text()
    outline = target.evaluate("e => getComputedStyle(e).outlineStyle")
    assert outline != "none", "the item the keys act on is visibly marked"
    first_id = target.get_attribute("id")
    page.keyboard.press("1")
    expect(page.locator(".disagreement.keys-target")).not_to_have_attribute("id", first_id)
    assert page.locator(f"#{first_id}.done").count() == 1


def test_the_error_category_table_fits_a_1400_px_window(staff_login, live_server, django_user_model):
    page = staff_login()
    evaluation = _judged_evaluation(django_user_model, overlap=0.0)
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{live_server.url}/labeling/{evaluation.pk}/report/")
    expect(page.locator("#error-categories")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 1400, f"the report is {width} px wide in a 1,400 px window"
    box = page.locator("#error-categories").evaluate("e => e.closest('.panel').getBoundingClientRect().right")
    assert box <= 1400
