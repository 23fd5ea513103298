"""axe-core finds no serious or critical accessibility violation on the console pages issue 33 names:
the dashboard home, the New crawl form, a crawl's page, a site's page, the pairs list, the retraining
page, the adjudication page and an evaluation's report (tests/browser/axe.py injects axe-core)."""
import pytest

from frontier.models import SiteVerdict
from labeling.creation import create_evaluation
from labeling.models import Assignment, Judgment
from tests.browser.axe import serious_violations
from tests.labeling.conftest import make_crawl, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_console_pages_have_no_serious_or_critical_accessibility_violation(
        staff_login, live_server, django_user_model):
    page = staff_login()
    operator = django_user_model.objects.get(username="operator")
    crawl = make_crawl(pairs=30)
    site_id = SiteVerdict.objects.get(crawl=crawl).site_id
    ana, bob = make_user(django_user_model, "ana", "evaluators"), make_user(django_user_model, "bob", "evaluators")
    evaluation = create_evaluation(name="Two judges", what="pairs", crawls=[crawl], stratify_by="method",
                                   sample_size=4, seed=3, overlap=1.0, purpose="estimate", evaluators=[ana, bob],
                                   created_by=operator)
    for assignment in Assignment.objects.filter(evaluation=evaluation):
        yes = assignment.evaluator == ana
        Judgment.objects.create(assignment=assignment, verdict="yes" if yes else "no",
                                category="" if yes else "false_bilingual")
    paths = ["/", "/crawls/new/", f"/crawls/{crawl.pk}/", f"/crawls/{crawl.pk}/sites/{site_id}/",
             f"/pairs/crawls/{crawl.pk}/pairs/", "/training/", f"/labeling/{evaluation.pk}/disagreements/",
             f"/labeling/{evaluation.pk}/report/"]
    found = {}
    for path in paths:
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state("load")
        if violations := serious_violations(page):
            found[path] = violations
    assert not found, "\n".join(f"{path}:\n  " + "\n  ".join(lines) for path, lines in found.items())
