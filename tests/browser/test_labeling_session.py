"""A whole labeling session in a real browser, on a real crawl of the test web with its judging cases:
an admin creates an evaluation from the form; two evaluators judge by keyboard, with overlap, a
mistake undone and a reload mid-session; the admin adjudicates their disagreements by keyboard, reads
the report (its figures recomputed here from the answers given), follows a number to its items, and
has a retraining job promote or reject a pair classifier, with the comparison on the page.

Saves docs/judging.png and docs/report.png for the docs (tutorial/first-evaluation.md, explanation/)
(tests.browser.screenshots)."""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from itertools import zip_longest
from statistics import NormalDist

import pytest
from playwright.sync_api import expect
from django.template.defaultfilters import floatformat

from crawlweb.services.network import close_warc_writers
from evaluation.models import CandidatePair
from labeling.models import Adjudication, Assignment, Evaluation, Judgment
from tests.browser.judging_helpers import log_in, press, progress
from tests.browser.screenshots import screenshot_path
from tests.evaluation_integration.helpers import crawl_sites
from tests.labeling.conftest import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
VIEWPORT = {"width": 1280, "height": 800}
# Beside the judging cases' site (4 true pairs, 5 wrong in an error category, 5 boilerplate-only pairs the
# filter keeps), a bilingual site with only true pairs: the improve sample then holds the 5 parallel and
# 5 wrong pairs among the filter's kept ones that training needs at least (training.services.trainers).
MORE_SITES = ("www.institut.rs",)
CATEGORY_KEYS = {"language_id": "1", "invalid_url": "2", "same_language": "3", "extraction": "4",
                 "false_bilingual": "5"}  # the judging keys 1–5 (docs/judging-guidelines.md)
ANSWER_OF_KEY = {"y": ("yes", ""), "n": ("no", ""), "p": ("partial", ""), "s": ("skip", ""),
                 **{key: ("no", category) for category, key in CATEGORY_KEYS.items()}}
Z = NormalDist().inv_cdf(0.975)  # the 95 % interval's z, exactly (1.96 rounds it)


@dataclass(frozen=True)
class Card:
    assignment: int
    item: int
    source_url: str


@pytest.fixture
def crawl(case_web_server, settings, tmp_path):
    settings.WARC_DIR = tmp_path / "warc"
    truth = case_web_server.truth()
    sites = [s for s in truth["sites"] if s["host"] in (truth["judging_cases"]["site"], *MORE_SITES)]
    crawl = crawl_sites(sites, budget=80)
    close_warc_writers()
    return crawl


@pytest.fixture
def contexts(browser):
    opened = []

    def open_page():
        context = browser.new_context(viewport=VIEWPORT)
        opened.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        return page

    yield open_page
    for context in opened:
        context.close()


def right_key(card: Card, cases: dict) -> str:
    """What a careful evaluator answers: the error category of a judging case, n for a boilerplate-only
    pair (the thin-page rule), else parallel."""
    for case, (source, _) in cases["error_pairs"].items():
        if source == card.source_url:
            return CATEGORY_KEYS[cases["error_category"][case]]
    if any(source == card.source_url for source, _ in cases["boilerplate_pairs"].values()):
        return "n"
    return "y"


def shown_card(page) -> Card | None:
    card = page.locator("#card[data-assignment]")
    if not card.count():
        return None
    return Card(int(card.get_attribute("data-assignment")), int(card.get_attribute("data-item")),
                card.locator(".page-head-col .url").first.inner_text().strip())


def counts(page) -> tuple[int, int]:
    done, total = progress(page).split(" / ")
    return int(done), int(total)


def judging_turns(page, who: str, choose, given: dict, *, mistake_at: int | None = None,
                  reload_at: int | None = None):
    """Judge every card by keyboard, one answer per turn (a generator, so two evaluators take turns).
    Before answer number ``mistake_at`` a wrong key first, taken back with u; after ``reload_at``
    answers the page is reloaded. ``given`` collects {(who, item): key}."""
    done, total = counts(page)
    while (card := shown_card(page)) is not None:
        key = choose(card)
        if done + 1 == mistake_at:
            press(page, "s" if key != "s" else "y", f"{done + 1} / {total}")
            assert shown_card(page) != card
            press(page, "u", f"{done} / {total}")  # the item comes back
            assert shown_card(page) == card and "Took back" in page.locator(".notice").inner_text()
        press(page, key, f"{done + 1} / {total}")
        given[(who, card.item)] = key
        done += 1
        if done == reload_at:
            before = shown_card(page)
            page.reload()  # loses nothing, judges nothing again
            assert counts(page) == (done, total) and shown_card(page) == before
        yield done
    assert done == total and page.locator("text=All done").is_visible()


def start(page, evaluation_name: str):
    page.locator("tr", has_text=evaluation_name).get_by_role("link", name="Start").click()
    page.wait_for_selector("#progress-count")


def create_in_form(page, live_server, crawl, *, name, stratify_by, size, seed, overlap, purpose, evaluators) -> str:
    page.goto(f"{live_server.url}/labeling/")
    page.click("text=New evaluation")
    page.fill("#id_name", name)
    page.check(f"input[name=crawls][value='{crawl.pk}']")
    page.select_option("#id_stratify_by", stratify_by)
    page.fill("#id_sample_size", str(size))
    page.fill("#id_seed", str(seed))
    page.fill("#id_overlap", str(overlap))
    page.check(f"input[name=purpose][value={purpose}]")
    for user in evaluators:
        page.check(f"input[name=evaluators][value='{user.pk}']")
    population = CandidatePair.objects.filter(crawl=crawl).count()  # the margins cover the crawl's pairs
    page.wait_for_function("n => document.querySelector('#margin-table tfoot')?.innerText.includes(n)",
                           arg=str(population))
    page.click("text=Draw the sample and assign it")
    page.wait_for_selector(".messages .success")
    return page.locator(".messages").inner_text()


# --- what the report should say, computed here from the answers given --------------------------------

def final_answers(evaluation: Evaluation, given: dict, decided: dict) -> dict[int, tuple[str, str]]:
    """{item: (verdict, category)}: the admin's decision, else the judges' common answer; skips count
    for no side; items whose judges disagree and nobody decided are left out."""
    finals = {}
    for item in evaluation.items.all():
        answers = {ANSWER_OF_KEY[key] for (_, pk), key in given.items() if pk == item.pk} - {("skip", "")}
        if item.pk in decided:
            finals[item.pk] = decided[item.pk]
        elif len(answers) == 1:
            finals[item.pk] = answers.pop()
    return finals


def wilson(successes: int, n: int) -> tuple[float, float]:
    p, d = successes / n, 1 + Z * Z / n
    centre, half = (p + Z * Z / (2 * n)) / d, Z / d * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def strata_rows(evaluation: Evaluation, finals: dict) -> dict[str, dict]:
    rows = {}
    for item in evaluation.items.order_by("id"):
        row = rows.setdefault(item.stratum, {"N": item.stratum_size, "n": 0, "yes": 0, "items": set()})
        if item.pk in finals:
            row["n"] += 1
            row["yes"] += finals[item.pk][0] == "yes"
            row["items"].add(item.label)
    return rows


def stratified(rows: dict[str, dict]) -> tuple[float, float, float]:
    """Cochran's stratified estimate over the strata of pairs the filter kept, with Wilson's interval at
    the effective sample size n* = min(p(1−p)/Var, 1/Σ W²(1−n/N)/n) (Kish's design effect)."""
    kept = {name: r for name, r in rows.items() if name.endswith("· kept") and r["n"]}
    population = sum(r["N"] for r in kept.values())
    share = {name: r["yes"] / r["n"] for name, r in kept.items()}
    p = sum(r["N"] / population * share[name] for name, r in kept.items())
    var = sum((r["N"] / population) ** 2 * share[name] * (1 - share[name]) / r["n"] * (1 - r["n"] / r["N"])
              for name, r in kept.items())
    allocation = sum((r["N"] / population) ** 2 * (1 - r["n"] / r["N"]) / r["n"] for r in kept.values())
    n_star = min(math.inf if allocation == 0 else 1 / allocation,
                 p * (1 - p) / var if var > 0 and 0 < p < 1 else math.inf)
    if math.isinf(n_star):
        return p, p, p
    d = 1 + Z * Z / n_star
    centre, half = (p + Z * Z / (2 * n_star)) / d, Z / d * math.sqrt(p * (1 - p) / n_star + Z * Z / (4 * n_star ** 2))
    return p, max(0.0, centre - half), min(1.0, centre + half)


def cohen(given: dict, first: str, second: str) -> tuple[int, float | None]:
    """Cohen's kappa on the verdict over the items both answered (skips left out)."""
    a = {item: ANSWER_OF_KEY[key][0] for (who, item), key in given.items() if who == first and key != "s"}
    b = {item: ANSWER_OF_KEY[key][0] for (who, item), key in given.items() if who == second and key != "s"}
    both = sorted(set(a) & set(b))
    n = len(both)
    observed = sum(a[i] == b[i] for i in both) / n
    ca, cb = Counter(a[i] for i in both), Counter(b[i] for i in both)
    expected = sum(ca[k] * cb[k] for k in ca) / (n * n)
    return n, None if expected == 1 else (observed - expected) / (1 - expected)


def fmt(x: float | None) -> str:
    return "undefined" if x is None else floatformat(x, 3)


def cells(page, selector: str) -> list[list[str]]:
    return [row.split("\t") for row in page.locator(selector).all_inner_texts()]


def adjudicate_by_keyboard(admin, given: dict, double: set[int]) -> dict[int, tuple[str, str]]:
    """Press the number of Ana's answer on the first undecided item until none is left."""
    disputed = {item for item in double
                if len({ANSWER_OF_KEY[k] for (_, i), k in given.items() if i == item} - {("skip", "")}) > 1}
    assert len(disputed) >= 2
    # The link's click starts the page's load; the cards are counted once it has them.
    expect(admin.locator(".disagreement")).to_have_count(len(disputed))
    decided = {}
    for left in range(len(disputed), 0, -1):
        assert admin.locator("#disagreements strong.figure").inner_text() == str(left)
        first = admin.locator(".disagreement:not(.done)").first
        item = int(first.get_attribute("id").removeprefix("item-"))
        admin.keyboard.press(first.locator("button.key", has_text="(ana)").locator("kbd").inner_text())
        decided[item] = ANSWER_OF_KEY[given[("ana", item)]]
        admin.wait_for_function("n => document.querySelector('#disagreements strong.figure').innerText === n"
                                " && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')",
                                arg=str(left - 1))
    assert admin.locator(".disagreement.done").count() == len(disputed)
    return decided


def check_report(admin, estimate: Evaluation, given: dict, decided: dict) -> dict[str, dict]:
    """The report's counts, precision per stratum with Wilson intervals, the stratified estimate,
    Cohen's kappa and the pace table equal the figures computed here from the answers given."""
    finals = final_answers(estimate, given, decided)
    rows = strata_rows(estimate, finals)
    items = estimate.items.count()
    assert admin.locator(".counters dd").all_inner_texts() == [
        f"{items} ({items} for the estimate, 0 for training only)", str(len(finals)), "0"]
    shown = {r[0]: r[1:] for r in cells(admin, "#strata tbody tr")}
    assert set(shown) == set(rows)
    for name, r in rows.items():
        low, high = wilson(r["yes"], r["n"])
        assert shown[name] == [str(r["N"]), str(r["n"]), str(r["yes"]), fmt(r["yes"] / r["n"]),
                               f"{fmt(low)} – {fmt(high)}"], name
    p, low, high = stratified(rows)
    estimate_text = admin.locator("#estimate p.estimate").inner_text()
    assert estimate_text.startswith(f"{fmt(p)} (95 % interval {fmt(low)} – {fmt(high)}")
    items_both, kappa = cohen(given, "ana", "bob")
    agreement = cells(admin, "#agreement tbody tr")[0]
    assert agreement[0:2] == ["ana / bob", str(items_both)] and agreement[4] == fmt(kappa)
    answered = Counter(who for who, _ in given)
    assert {r[0]: r[1] for r in cells(admin, "#pace tbody tr")} == {who: str(n) for who, n in answered.items()}
    return rows


def test_a_whole_labeling_session_by_keyboard(contexts, live_server, django_user_model, crawl, case_web_server,
                                              settings, run_jobs, tmp_path):
    cases = case_web_server.truth()["judging_cases"]
    alice = make_user(django_user_model, "alice", "admins")
    ana, bob = make_user(django_user_model, "ana", "evaluators"), make_user(django_user_model, "bob", "evaluators")
    admin, page_a, page_b = contexts(), contexts(), contexts()
    log_in(admin, live_server, "alice")

    # 1. The admin draws an estimate sample per site, half of it for both evaluators.
    said = create_in_form(admin, live_server, crawl, name="Spring pairs", stratify_by="site", size=3, seed=7,
                          overlap=0.5, purpose="estimate", evaluators=[ana, bob])
    estimate = Evaluation.objects.get(name="Spring pairs")
    strata = Counter(estimate.items.values_list("stratum", flat=True))
    assert f"{estimate.items.count()} items in {len(strata)} strata" in said and len(strata) == 3
    double = {pk for pk, n in Counter(Assignment.objects.filter(evaluation=estimate)
                                      .values_list("item_id", flat=True)).items() if n == 2}
    assert len(double) == round(0.5 * estimate.items.count()) >= 4

    # 2. Ana answers right, skips one item of her own; Bob differs from her on two shared items.
    given: dict[tuple[str, int], str] = {}
    skipped, differed = [], []

    def ana_chooses(card):
        if card.item not in double and not skipped:
            skipped.append(card.item)
            return "s"
        return right_key(card, cases)

    def bob_chooses(card):
        key = right_key(card, cases)
        if card.item in double and len(differed) < 2:
            differed.append(card.item)
            return "n" if key == "y" else "y"
        return key

    log_in(page_a, live_server, "ana")
    log_in(page_b, live_server, "bob")
    start(page_a, "Spring pairs")
    start(page_b, "Spring pairs")
    ana_turns = judging_turns(page_a, "ana", ana_chooses, given, mistake_at=2, reload_at=3)
    bob_turns = judging_turns(page_b, "bob", bob_chooses, given, mistake_at=3, reload_at=4)
    for _ in range(3):
        next(ana_turns)
    page_a.screenshot(path=str(screenshot_path("judging.png", tmp_path)))  # the judging card mid-session
    for _ in zip_longest(ana_turns, bob_turns):  # both at work, taking turns
        pass
    assert skipped and len(differed) == 2
    stored = {(j.assignment.evaluator.username, j.assignment.item_id): (j.verdict, j.category)
              for j in Judgment.objects.select_related("assignment__evaluator")}
    assert stored == {k: ANSWER_OF_KEY[key] for k, key in given.items()}  # undone answers are gone

    # 3. The admin settles every disagreement by keyboard, choosing the right answer (Ana's).
    admin.goto(f"{live_server.url}/labeling/")
    admin.locator("tr", has_text="Spring pairs").get_by_role("link", name="disagreements").click()
    decided = adjudicate_by_keyboard(admin, given, double)
    assert {a.item_id: (a.verdict, a.category) for a in Adjudication.objects.all()} == decided

    # 4. The report says what the answers say; a number leads to its items.
    admin.get_by_role("link", name="Report", exact=True).click()
    admin.wait_for_selector("#strata")
    rows = check_report(admin, estimate, given, decided)
    admin.screenshot(path=str(screenshot_path("report.png", tmp_path)))
    busiest = max(rows, key=lambda name: rows[name]["n"])
    admin.locator("#strata tbody tr", has_text=busiest).locator("td:nth-child(3) a").click()
    admin.wait_for_selector("#items")
    assert {row[1] for row in cells(admin, "#items tbody tr")} == rows[busiest]["items"]

    # 5. An improve sample for training, judged by Ana; the admin trains from the training page.
    create_in_form(admin, live_server, crawl, name="Teach pairs", stratify_by="verdict", size=50, seed=8,
                   overlap=0, purpose="improve", evaluators=[ana])
    improve = Evaluation.objects.get(name="Teach pairs")
    page_a.goto(f"{live_server.url}/labeling/")
    start(page_a, "Teach pairs")
    given_to_teach: dict[tuple[str, int], str] = {}
    for _ in judging_turns(page_a, "ana", lambda card: right_key(card, cases), given_to_teach):
        pass
    taught = Counter(ANSWER_OF_KEY[key][0] for key in given_to_teach.values())
    assert improve.items.count() == sum(taught.values()) and taught["yes"] >= 5 and taught["no"] >= 5
    kept = {item.pk for item in improve.items.filter(pair__kept=True)}  # the filter's verdicts, before training
    taught_kept = Counter(ANSWER_OF_KEY[key][0] for (_, item), key in given_to_teach.items() if item in kept)
    assert taught_kept["yes"] >= 5 and taught_kept["no"] >= 5, "the boilerplate-only cases: wrong pairs the filter keeps"
    settings.JOBS_INPROCESS_MODE = "thread"  # the job runs beside the web server, as in the embedded mode
    settings.TRAIN_PROMOTE_MIN_PER_LABEL = 5  # a session of a few dozen judgments: the comparison decides
    admin.click("nav >> text=Training")
    admin.click("text=Train now")
    assert "requested" in admin.locator(".messages").inner_text()
    run_jobs(timeout=60)
    admin.wait_for_selector("#kind-pair_classifier tbody tr", timeout=20000)  # the page refreshes itself
    # the run's outcome is written after its models: read the page once the run has ended, not mid-way
    admin.wait_for_selector("section.panel:last-of-type tbody tr:first-child :is(.state-done, .state-failed)",
                            timeout=20000)
    version = cells(admin, "#kind-pair_classifier tbody tr")[0]
    _, state, judged, new_f1, current_f1, folds, compared_with, why, _ = version
    # trained on the improve items the filter kept only: the estimate's judgments measure precision and stay out
    assert judged == f"{sum(taught_kept.values())} ({taught_kept['yes']} yes)" and compared_with == "the method's filter"
    assert state == ("promoted" if float(new_f1) >= float(current_f1) else "rejected")
    assert why.startswith(f"{state}: ") and f"mean F1 over {folds} folds {new_f1} vs {current_f1}" in why
    outcome = cells(admin, "table.data >> nth=-1 >> tbody tr")[0][3]
    assert f"pair_classifier: v1 {state}" in outcome and "link_predictor: skipped" in outcome
