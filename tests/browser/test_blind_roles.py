"""Blind judging cannot be broken by URL guessing: in Chromium, anonymous, evaluator A (ana), evaluator B
(bob) and staff each walk every labeling URL (every pattern of labeling/urls.py and report_urls.py, with
ids of real rows: their own and the other evaluator's assignments, an evaluation they are not in) and
see what their role allows and nothing more. Both evaluators judge the same items (overlap 1), and
bob's answers differ from ana's, so any leak would show.

docs/judging-guidelines.md has the table this test holds the app to."""
from __future__ import annotations

import io
import re

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from labeling.creation import create_evaluation
from labeling.judging import record
from labeling.models import Adjudication, Assignment, Judgment
from tests.browser.judging_helpers import log_in, press
from tests.hardening.test_every_view_is_guarded import named_patterns
from tests.labeling.conftest import make_crawl, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ROLES = ("anonymous", "ana", "bob", "staff")
LOGIN, POST_ONLY = "login", 405
# What each role gets for each URL (GET): a status, or LOGIN (sent to the labeling login page).
# "mine"/"theirs": the role's own assignment or evaluation, or the other evaluator's.
EXPECTED = {
    "labeling:index": (LOGIN, 200, 200, 200),
    "labeling:login": (200, 200, 200, 200),
    "labeling:logout": (POST_ONLY,) * 4,
    "labeling:new": (LOGIN, 403, 403, 200),
    "labeling:margins": (LOGIN, 403, 403, 200),
    "labeling:close": (POST_ONLY,) * 4,
    "labeling:reopen": (POST_ONLY,) * 4,
    "labeling:judge": (LOGIN, 200, 200, 404),  # the shared evaluation; staff judges nothing in it
    "labeling:judge other": (LOGIN, 404, 200, 404),  # bob's own evaluation, ana is not in it
    "labeling:undo": (POST_ONLY,) * 4,
    "labeling:answer": (POST_ONLY,) * 4,
    "labeling:copy": (LOGIN, 200, 404, 404),  # ana's assignment: hers only, not bob's nor staff's
    "labeling:copy theirs": (LOGIN, 404, 200, 404),  # bob's assignment of the same item
    "labeling:help": (LOGIN, 200, 200, 200),
    "labeling_report:reports": (LOGIN, 403, 403, 200),
    "labeling_report:report": (LOGIN, 403, 403, 200),
    "labeling_report:report other": (LOGIN, 403, 403, 200),
    "labeling_report:items": (LOGIN, 403, 403, 200),
    "labeling_report:items ?outcome=wrong": (LOGIN, 403, 403, 200),
    "labeling_report:items ?evaluator=bob": (LOGIN, 403, 403, 200),
    "labeling_report:items ?evaluator=ana": (LOGIN, 403, 403, 200),
    "labeling_report:items ?category=same_language": (LOGIN, 403, 403, 200),
    "labeling_report:report_download": (LOGIN, 403, 403, 200),
    "labeling_report:judgments_download": (LOGIN, 403, 403, 200),
    "labeling_report:disagreements": (LOGIN, 403, 403, 200),
    "labeling_report:adjudicate": (LOGIN, 403, 403, POST_ONLY),
}
# Not pages a browser shows: downloads (attachments) and POST-only views (an empty 405); read with the
# browser context's request API, which carries the same session cookie.
NOT_SHOWN = ("labeling_report:report_download", "labeling_report:judgments_download", "labeling:logout",
             "labeling:close", "labeling:reopen", "labeling:undo", "labeling:answer", "labeling_report:adjudicate")


def store_copy(warc_dir, crawl_id: int, pages) -> None:
    """The pages' stored copies, as the crawler's WARC writer leaves them (read by labeling.warc_copy)."""
    directory = warc_dir / f"crawl-{crawl_id}"
    directory.mkdir(parents=True)
    with open(directory / "copies.warc.gz", "wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        for page in pages:
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1")
            body = f"<html><body><p>{page.text}</p></body></html>".encode()
            writer.write_record(writer.create_warc_record(page.url, "response", payload=io.BytesIO(body),
                                                          http_headers=headers))


@pytest.fixture
def world(django_user_model, settings, tmp_path):
    settings.WARC_DIR = tmp_path
    crawl = make_crawl(pairs=8)
    ana, bob = make_user(django_user_model, "ana", "evaluators"), make_user(django_user_model, "bob", "evaluators")
    shared = create_evaluation(name="Shared pairs", what="pairs", crawls=[crawl], stratify_by="verdict", sample_size=3,
                               seed=5, overlap=1.0, purpose="estimate", evaluators=[ana, bob])
    bobs_own = create_evaluation(name="Bob alone", what="pairs", crawls=[crawl], stratify_by="verdict", sample_size=2,
                                 seed=6, overlap=0.0, purpose="estimate", evaluators=[bob])
    queue = {who: list(Assignment.objects.filter(evaluation=shared, evaluator=who).order_by("order")
                       .select_related("item__pair__source_page", "item__pair__target_page", "evaluation"))
             for who in (ana, bob)}
    # Three items judged by both: ana says yes, bob says "both pages in one language" on the first.
    items = [a.item_id for a in queue[ana][:3]]
    for assignment in queue[ana][:3]:
        record(assignment, "yes", "", 5.0)
    for assignment in (a for a in queue[bob] if a.item_id in items):
        record(assignment, "no", "same_language", 5.0) if assignment.item_id == items[0] else record(
            assignment, "yes", "", 5.0)
    anas = next(a for a in queue[ana] if a.item_id == items[0])
    bobs = next(a for a in queue[bob] if a.item_id == items[0])
    store_copy(tmp_path, crawl.pk, [anas.item.pair.source_page])
    return {"shared": shared, "bobs_own": bobs_own, "ana": ana, "bob": bob, "anas": anas, "bobs": bobs,
            "next_of_ana": queue[ana][3], "disputed": anas.item_id}


def urls(world) -> dict[str, str]:
    e, other = world["shared"].pk, world["bobs_own"].pk
    items = f"/labeling/{e}/report/items/"
    return {
        "labeling:index": "/labeling/", "labeling:login": "/labeling/login/", "labeling:logout": "/labeling/logout/",
        "labeling:new": "/labeling/new/", "labeling:margins": "/labeling/new/margins/",
        "labeling:close": f"/labeling/{e}/close/", "labeling:reopen": f"/labeling/{e}/reopen/",
        "labeling:judge": f"/labeling/{e}/judge/", "labeling:judge other": f"/labeling/{other}/judge/",
        "labeling:undo": f"/labeling/{e}/undo/", "labeling:answer": f"/labeling/assignments/{world['anas'].pk}/answer/",
        "labeling:copy": f"/labeling/assignments/{world['anas'].pk}/copy/source/",
        "labeling:copy theirs": f"/labeling/assignments/{world['bobs'].pk}/copy/source/",
        "labeling:help": "/labeling/help/?what=pairs",
        "labeling_report:reports": "/labeling/reports/", "labeling_report:report": f"/labeling/{e}/report/",
        "labeling_report:report other": f"/labeling/{other}/report/",
        "labeling_report:items": items, "labeling_report:items ?outcome=wrong": f"{items}?outcome=wrong",
        "labeling_report:items ?evaluator=bob": f"{items}?evaluator=bob",
        "labeling_report:items ?evaluator=ana": f"{items}?evaluator=ana",
        "labeling_report:items ?category=same_language": f"{items}?category=same_language",
        "labeling_report:report_download": f"/labeling/{e}/report.json",
        "labeling_report:judgments_download": f"/labeling/{e}/judgments.csv",
        "labeling_report:disagreements": f"/labeling/{e}/disagreements/",
        "labeling_report:adjudicate": f"/labeling/items/{world['disputed']}/adjudicate/",
    }


def test_the_walk_covers_every_labeling_url():
    names = {name for name, _, _ in named_patterns() if name.startswith(("labeling:", "labeling_report:"))}
    assert names == {name.split(" ")[0] for name in EXPECTED}


def visit(page, base: str, name: str, path: str) -> tuple[object, str]:
    """GET in the browser: (status or LOGIN, the text shown or downloaded)."""
    if name in NOT_SHOWN:
        response = page.request.get(base + path, max_redirects=0)
        if response.status == 302 and "/labeling/login/" in response.headers["location"]:
            return LOGIN, ""
        return response.status, response.text()
    response = page.goto(base + path)
    if "/labeling/login/" in page.url and name != "labeling:login":
        return LOGIN, ""
    return response.status, page.locator("body").inner_text()


def post(page, path: str, data: dict) -> tuple[int, str]:
    """A form post from the page, with the CSRF token the page carries (as htmx sends it)."""
    return tuple(page.evaluate(
        """async ([path, data]) => {
             const token = JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken'];
             const r = await fetch(path, {method: 'POST', body: new URLSearchParams(data),
                                          headers: {'X-CSRFToken': token}});
             return [r.status, r.url];
           }""", [path, data]))


def walk(page, live_server, world, role: str) -> dict[str, str]:
    column = ROLES.index(role)
    shown, wrong = {}, []
    for name, path in urls(world).items():
        status, text = visit(page, live_server.url, name, path)
        shown[name] = text
        if status != EXPECTED[name][column]:
            wrong.append(f"{name} {path}: {status}, expected {EXPECTED[name][column]}")
    assert not wrong, f"{role}:\n" + "\n".join(wrong)
    return shown


def test_anonymous_people_are_sent_to_the_login_page_everywhere(page, live_server, world):
    walk(page, live_server, world, "anonymous")
    page.goto(f"{live_server.url}/labeling/login/")
    status, where = post(page, urls(world)["labeling:answer"], {"key": "n"})
    assert "/labeling/login/" in where
    assert Judgment.objects.filter(assignment=world["anas"]).get().verdict == "yes"


@pytest.mark.parametrize("who, other", [("ana", "bob"), ("bob", "ana")])
def test_an_evaluator_sees_only_their_own_work(page, live_server, world, who, other):
    log_in(page, live_server, who)
    shown = walk(page, live_server, world, who)
    for name, text in shown.items():  # no page an evaluator reaches names the other or their answers
        assert not re.search(rf"\b{other}\b", text, re.I) and "same_language" not in text, name
        assert "Stratified" not in text and "Agreement" not in text, name
    mine = Assignment.objects.filter(evaluation=world["shared"], evaluator=world[who])
    assert "Shared pairs" in shown["labeling:index"] and ("Bob alone" in shown["labeling:index"]) == (who == "bob")
    page.goto(f"{live_server.url}/labeling/")
    assert "Reports" not in page.locator("nav").inner_text()
    # the judging card: their own next item, none of the machine's signals
    page.goto(f"{live_server.url}/labeling/{world['shared'].pk}/judge/")
    card = page.locator("#card")
    assert int(card.get_attribute("data-assignment")) in set(mine.values_list("pk", flat=True))
    assert not re.search(r"filter: |Sim_Same|stratum|kept|removed", card.inner_text())
    done = mine.filter(judgment__isnull=False).count()
    press(page, "p", f"{done + 1} / {mine.count()}")  # the echo names the answer just given, with its undo
    echo = page.locator("#last-answer").inner_text()
    assert echo.startswith("Your last answer:") and "Partial" in echo and "undo" in echo
    # by URL guessing with their session: answer, undo, adjudicate, close someone else's
    theirs = world["bobs"] if who == "ana" else world["anas"]
    before = {j.pk: (j.verdict, j.category) for j in Judgment.objects.filter(assignment__evaluator=world[other])}
    assert post(page, f"/labeling/assignments/{theirs.pk}/answer/", {"key": "y"})[0] == 404
    assert post(page, f"/labeling/assignments/{theirs.pk}/copy/source/", {})[0] == 405
    assert post(page, f"/labeling/items/{world['disputed']}/adjudicate/", {"answer": "1"})[0] == 403
    assert post(page, f"/labeling/{world['shared'].pk}/close/", {})[0] == 403
    assert post(page, f"/labeling/{world['shared'].pk}/undo/", {})[0] == 200  # takes back their own last answer
    assert {j.pk: (j.verdict, j.category) for j in Judgment.objects.filter(assignment__evaluator=world[other])} == before
    assert mine.filter(judgment__isnull=False).count() == done
    assert not Adjudication.objects.exists()


def test_staff_reads_every_report_with_everyones_answers(page, live_server, world, staff_login):
    staff_login()
    shown = walk(page, live_server, world, "staff")
    assert "ana / bob" in shown["labeling_report:report"] and "Reading (Landis & Koch)" in shown["labeling_report:report"]
    assert "effective sample size" in shown["labeling_report:report"]
    assert "bob: no · same_language" in shown["labeling_report:items ?evaluator=bob"]
    assert "judges disagree" in shown["labeling_report:items"]
    assert "1 to decide of 1 item" in shown["labeling_report:disagreements"]
    page.goto(f"{live_server.url}/labeling/")
    assert "Reports" in page.locator("nav").inner_text()
