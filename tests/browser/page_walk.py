"""Every page a person can reach in the browser, with what each role gets on it, over a real crawl of
the test web (tests/browser/test_every_page_by_role.py walks them).

Roles: a visitor (not logged in), an evaluator (ana, judging in an open evaluation), a viewer (vera,
the reviewer role: reads reports, judges nothing) and staff (the operator, a superuser)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from crawlweb.models import Crawl
from crawlweb.jobs.crawl_control import start_crawl
from crawlweb.services.network import close_warc_writers
from evaluation.models import CandidatePair
from frontier.models import LayerPlacement, SiteVerdict, Target
from labeling.creation import create_evaluation
from labeling.judging import record
from labeling.models import Assignment
from tests.evaluation_integration.helpers import home_urls
from tests.labeling.conftest import PASSWORD, make_user

ROLES = ("visitor", "evaluator", "viewer", "staff")
USERNAMES = {"evaluator": "ana", "viewer": "vera", "staff": "operator"}
# What a role gets: a status shown in the browser, or where it is sent.
LOGIN = "the log-in page, then back"  # /labeling/login/?next=<the page>
ADMIN_LOGIN = "the admin's log-in"  # the admin's pages keep Django's own
# (django-rq's pages are left out: the walk's jobs run synchronously, without Redis, where they answer 404)
HOME = "its home page"  # / for a signed-in evaluator or viewer: their labeling home
CONSOLE = {"visitor": LOGIN, "evaluator": 403, "viewer": 403, "staff": 200}
ADMIN = {"visitor": ADMIN_LOGIN, "evaluator": ADMIN_LOGIN, "viewer": ADMIN_LOGIN, "staff": 200}
EVERYONE = {"visitor": 200, "evaluator": 200, "viewer": 200, "staff": 200}


@dataclass(frozen=True)
class Reachable:
    name: str
    path: str
    gets: dict  # role -> 200, 403, 404, LOGIN, ADMIN_LOGIN or HOME


def build_world(truth: dict, django_user_model) -> dict:
    """A finished crawl of the judging cases' site and a bilingual one (M01 and M03 placing its
    Targets, pairs scored), an open estimate evaluation of its pairs judged by ana and bob (their
    answers differ on one item, so adjudication has work), and the four roles' accounts."""
    sites = [s for s in truth["sites"] if s["host"] in (truth["judging_cases"]["site"], "www.institut.rs")]
    hosts = sorted({h for s in sites for h in s["hosts"]})
    config = {"url_rules": "allow HOST:^(" + "|".join(re.escape(h) for h in hosts) + ")$",
              "modules": {"M01": {"pair": "sr-en"}, "M03": {}}}
    crawl = Crawl.objects.create(name="every page", page_budget=60, config=config)
    start_crawl(crawl, extra_urls=home_urls(sites))  # jobs run synchronously: finished on return
    close_warc_writers()
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED and CandidatePair.objects.filter(crawl=crawl).exists(), crawl.last_error

    staff = django_user_model.objects.create_superuser("operator", "op@example.org", PASSWORD)
    ana, bob = make_user(django_user_model, "ana", "evaluators"), make_user(django_user_model, "bob", "evaluators")
    make_user(django_user_model, "vera", "viewers")
    evaluation = create_evaluation(name="Pairs of the whole walk", what="pairs", crawls=[crawl], stratify_by="method",
                                   sample_size=4, seed=3, overlap=1.0, purpose="estimate", evaluators=[ana, bob],
                                   created_by=staff)
    queue = {who: list(Assignment.objects.filter(evaluation=evaluation, evaluator=who).order_by("order"))
             for who in (ana, bob)}
    for assignment in queue[ana][:-1]:  # ana has one item left: her judging card shows it
        record(assignment, "yes", "", 4.0)
    disputed = queue[ana][0].item_id
    for assignment in queue[bob]:
        no = assignment.item_id == disputed
        record(assignment, "no" if no else "yes", "same_language" if no else "", 4.0)
    placement = LayerPlacement.objects.filter(target__crawl=crawl).first()
    return {"crawl": crawl, "evaluation": evaluation, "placement": placement,
            "site": SiteVerdict.objects.filter(crawl=crawl, bilingual=True).first().site_id,
            "target": Target.objects.filter(crawl=crawl, page__isnull=False).first().pk}


def reachable_pages(world: dict) -> list[Reachable]:
    """Each console, labeling and admin page, with real ids, and what each role gets there."""
    c, e, placement = world["crawl"].pk, world["evaluation"].pk, world["placement"]
    ana_judges = {"visitor": LOGIN, "evaluator": 200, "viewer": 403, "staff": 404}  # staff judges nothing here
    evaluators = {"visitor": LOGIN, "evaluator": 200, "viewer": 403, "staff": 200}
    reviewers = {"visitor": LOGIN, "evaluator": 403, "viewer": 200, "staff": 200}
    admins = {"visitor": LOGIN, "evaluator": 403, "viewer": 403, "staff": 200}
    pages = [
        Reachable("dashboard", "/", {"visitor": LOGIN, "evaluator": HOME, "viewer": HOME, "staff": 200}),
        Reachable("new crawl", "/crawls/new/", CONSOLE),
        Reachable("crawl", f"/crawls/{c}/", CONSOLE),
        Reachable("site", f"/crawls/{c}/sites/{world['site']}/", CONSOLE),
        Reachable("parallel pages", f"/pairs/crawls/{c}/", CONSOLE),
        Reachable("sites", f"/pairs/crawls/{c}/sites/", CONSOLE),
        Reachable("pairs", f"/pairs/crawls/{c}/pairs/", CONSOLE),
        Reachable("patterns", f"/pairs/crawls/{c}/patterns/", CONSOLE),
        Reachable("discovered sites", f"/pairs/crawls/{c}/discovered/", CONSOLE),
        Reachable("harvest", "/frontier/harvest/", CONSOLE),
        Reachable("frontier layers", f"/frontier/crawls/{c}/layers/", CONSOLE),
        Reachable("layer targets", f"/frontier/crawls/{c}/layers/{placement.module}/{placement.layer}/", CONSOLE),
        Reachable("target", f"/frontier/targets/{world['target']}/", CONSOLE),
        Reachable("jobs", "/jobs/", CONSOLE),
        Reachable("training", "/training/", admins),
        Reachable("log-in", "/labeling/login/", EVERYONE),
        Reachable("labeling home", "/labeling/", {"visitor": LOGIN, "evaluator": 200, "viewer": 200, "staff": 200}),
        Reachable("judging card", f"/labeling/{e}/judge/", ana_judges),
        Reachable("judging help", "/labeling/help/?what=pairs", evaluators),
        Reachable("new evaluation", "/labeling/new/", admins),
        Reachable("reports", "/labeling/reports/", reviewers),
        Reachable("report", f"/labeling/{e}/report/", reviewers),
        Reachable("report items", f"/labeling/{e}/report/items/", reviewers),
        Reachable("adjudication", f"/labeling/{e}/disagreements/", admins),
        Reachable("admin home", "/admin/", ADMIN),
        Reachable("admin crawls", "/admin/crawlweb/crawl/", ADMIN),
        Reachable("admin crawl", f"/admin/crawlweb/crawl/{c}/change/", ADMIN),
        Reachable("admin targets", f"/admin/frontier/target/?crawl__id__exact={c}", ADMIN),
        Reachable("admin pages", f"/admin/crawlweb/page/?crawl__id__exact={c}", ADMIN),
        Reachable("admin sites", f"/admin/crawlweb/site/?crawl={c}", ADMIN),
        Reachable("admin hosts", f"/admin/crawlweb/host/?crawl={c}", ADMIN),
        Reachable("admin users", "/admin/auth/user/", ADMIN),
    ]
    return pages
