"""Evaluators in a real browser: a whole judging session by keyboard, and crawled pages full of
script-injection attempts that must render harmlessly."""
import pytest
from playwright.sync_api import expect

from labeling.creation import create_evaluation
from labeling.models import Assignment, Judgment
from tests.browser.judging_helpers import log_in, press, progress, shown_assignment
from tests.labeling.conftest import make_crawl, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_evaluator_judges_by_keyboard_undoes_reloads_and_continues(page, live_server, django_user_model):
    ana = make_user(django_user_model, "ana", "evaluators")
    crawl = make_crawl(pairs=8)
    evaluation = create_evaluation(name="Primer pairs", what="pairs", crawls=[crawl], stratify_by="verdict",
                                   sample_size=3, seed=5, overlap=0.0, purpose="estimate", evaluators=[ana])
    queue = list(Assignment.objects.filter(evaluator=ana).order_by("order").values_list("pk", flat=True))
    assert len(queue) == 6
    log_in(page, live_server, "ana")
    page.click("text=Start")
    assert progress(page) == "0 / 6" and shown_assignment(page) == queue[0]
    press(page, "y", "1 / 6")
    press(page, "n", "2 / 6")
    press(page, "3", "3 / 6")
    assert shown_assignment(page) == queue[3]
    press(page, "u", "2 / 6")  # undo: the third item comes back
    assert shown_assignment(page) == queue[2] and "Took back" in page.locator(".notice").inner_text()
    press(page, "p", "3 / 6")
    page.reload()  # a reload mid-session loses nothing and judges nothing again
    assert progress(page) == "3 / 6" and shown_assignment(page) == queue[3]
    press(page, "s", "4 / 6")
    press(page, "y", "5 / 6")
    assert page.locator(".bar[role=progressbar]").get_attribute("aria-valuenow") == "5"
    width = page.eval_on_selector(".judge-progress .bar > span", "e => e.style.width")
    assert width == "83.3%"
    press(page, "?", "5 / 6")
    page.wait_for_selector(".help-panel")
    assert "Language identification error" in page.locator(".help-panel").inner_text()
    press(page, "5", "6 / 6")
    page.wait_for_selector("text=All done")
    answers = {a: (v, c) for a, v, c in Judgment.objects.values_list("assignment_id", "verdict", "category")}
    assert answers == {queue[0]: ("yes", ""), queue[1]: ("no", ""), queue[2]: ("partial", ""),
                       queue[3]: ("skip", ""), queue[4]: ("yes", ""), queue[5]: ("no", "false_bilingual")}


def test_injected_scripts_in_crawled_pages_never_run_in_the_judging_view(page, live_server, django_user_model,
                                                                         settings, tmp_path, case_web_server):
    from crawlweb.models import Site
    from crawlweb.services.network import close_warc_writers
    from evaluation.models import CandidatePair
    from tests.evaluation_integration.helpers import crawl_sites

    settings.WARC_DIR = tmp_path / "warc"
    truth = case_web_server.truth()
    site = next(s for s in truth["sites"] if s["host"] == truth["judging_cases"]["site"])
    crawl = crawl_sites([site], budget=80)
    close_warc_writers()
    pair = CandidatePair.objects.get(crawl=crawl, source_url=truth["judging_cases"]["injection_pair"][0])
    ana = make_user(django_user_model, "ana", "evaluators")
    evaluation = create_evaluation(name="Injection", what="pairs", crawls=[crawl], stratify_by="verdict",
                                   sample_size=50, seed=1, overlap=0.0, purpose="estimate", evaluators=[ana])
    mine = Assignment.objects.filter(evaluation=evaluation, evaluator=ana)
    mine.exclude(item__pair=pair).delete()  # the injection pair is the card shown
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    log_in(page, live_server, "ana")
    page.goto(f"{live_server.url}/labeling/{evaluation.pk}/judge/")
    card = page.locator("#card")
    assert "<script>window.__injected" in card.inner_text()  # shown as text, escaped
    assert "{{ request.user.password }}" in card.inner_text()
    page.click("summary")  # the stored copies, in sandboxed frames
    frames = page.locator(".copies iframe")
    assert frames.count() == 2 and all(frames.nth(i).get_attribute("sandbox") == "" for i in range(2))
    page.wait_for_function("() => [...document.querySelectorAll('.copies iframe')].every("
                           "f => f.contentDocument === null)")  # sandboxed: not even same-origin
    copy = page.request.get(live_server.url + frames.nth(1).get_attribute("src"))
    assert copy.ok and "script-src" not in copy.headers["content-security-policy"]
    assert "default-src 'none'" in copy.headers["content-security-policy"] and "sandbox" in copy.headers["content-security-policy"]
    assert "<script>window.__injected = 'script'" in copy.text()  # the copy is there, with its scripts inert
    page.wait_for_timeout(1500)
    assert all(frame.evaluate("() => window.__injected === undefined") for frame in page.frames)
    assert dialogs == []
    assert page.evaluate("() => window.__injected") is None
    page.keyboard.press("y")  # and the card still works
    page.wait_for_selector("text=All done")
    assert Judgment.objects.get(assignment__evaluator=ana).verdict == "yes"


def test_an_admin_creates_an_evaluation_and_sees_the_margins_follow_the_size(page, live_server, django_user_model):
    from labeling.models import Evaluation

    make_user(django_user_model, "alice", "admins")
    make_user(django_user_model, "ana", "evaluators")
    make_user(django_user_model, "bob", "evaluators")
    crawl = make_crawl(pairs=12)
    log_in(page, live_server, "alice")
    page.click("text=New evaluation")
    page.fill("#id_name", "Spring sample")
    page.check(f"input[name=crawls][value='{crawl.pk}']")
    page.select_option("#id_stratify_by", "verdict")
    page.fill("#id_sample_size", "4")
    # the margin table comes from the server as the admin edits (htmx): kept 4 of 8, removed 4 of 4
    page.wait_for_selector("#margin-table")
    page.wait_for_function("() => document.querySelector('#margin-table tfoot').innerText.includes('8')")
    # cell by cell: a row's innerText joins its cells with tabs only once the swapped table is laid out
    rows = [row.locator("td").all_inner_texts() for row in page.locator("#margin-table tbody tr").all()]
    assert rows == [["kept", "4", "8", "± 37.0 %"], ["removed", "4", "4", "± 0.0 %"]]
    page.fill("#id_sample_size", "2")
    page.wait_for_function("() => document.querySelector('#margin-table tbody td:nth-child(2)').innerText === '2'")
    # 1.96 · √(0.25 / 2) · √(6 / 7) = 0.69296 · 0.92582 = 0.6416
    assert page.locator("#margin-table tbody tr").first.inner_text().split("\t")[3] == "± 64.2 %"
    page.fill("#id_overlap", "0.5")
    page.check("input[name=evaluators] >> nth=0")  # one evaluator only: the overlap is refused by name
    page.click("text=Draw the sample and assign it")
    # the refused form is the same form as before the click: expect() waits for the answer that names the field
    expect(page.locator("form.form-grid")).to_contain_text("Overlap share: An overlap needs at least two evaluators")
    page.check("input[name=evaluators] >> nth=1")
    page.click("text=Draw the sample and assign it")
    page.wait_for_selector(".messages .success")
    assert "4 items in 2 strata" in page.locator(".messages").inner_text()
    evaluation = Evaluation.objects.get(name="Spring sample")
    assert evaluation.items.count() == 4 and evaluation.assignments.count() == 6


# The element the keyboard is on, and whether a sighted keyboard user can see it: an outline (or a
# ring drawn as a box shadow) of at least 2 px in a colour that is not transparent.
FOCUS_SHOWN = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const s = getComputedStyle(e);
  const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2 && !s.outlineColor.endsWith(', 0)');
  const ring = s.boxShadow && s.boxShadow !== 'none';
  return {what: e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' ' + (e.innerText || e.value || '').trim().slice(0, 30),
          shown: outline || ring};
}"""


def tab_through(page, presses: int = 40) -> list[dict]:
    """Press Tab until the focus comes back round (or ``presses`` times); where it landed each time."""
    seen = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        landed = page.evaluate(FOCUS_SHOWN)
        if landed is None:
            continue
        if seen and landed["what"] == seen[0]["what"]:
            break
        seen.append(landed)
    return seen


def test_every_control_of_the_judging_flow_shows_where_the_keyboard_is(page, live_server, django_user_model):
    """What to build: the whole labeling flow by keyboard with a visible focus, from the log-in page to
    the card and its help."""
    ana = make_user(django_user_model, "ana", "evaluators")
    create_evaluation(name="Focus", what="pairs", crawls=[make_crawl(pairs=4)], stratify_by="verdict",
                      sample_size=2, seed=1, overlap=0.0, purpose="estimate", evaluators=[ana])
    page.goto(f"{live_server.url}/labeling/login/?next=/labeling/")
    stops = {"log-in": tab_through(page)}
    log_in(page, live_server, "ana")
    stops["labeling home"] = tab_through(page)
    page.click("text=Start")
    page.wait_for_selector("#progress-count")  # the card has loaded: tabbing before would tab the old page
    stops["judging card"] = tab_through(page)
    press(page, "?", progress(page))
    page.wait_for_selector(".help-panel")
    stops["card with its help"] = tab_through(page)
    for where, landed in stops.items():
        assert len(landed) >= 2, (where, landed)
        hidden = [stop["what"] for stop in landed if not stop["shown"]]
        assert not hidden, f"{where}: the focus is invisible on {hidden}"
