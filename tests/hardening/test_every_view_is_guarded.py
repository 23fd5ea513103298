"""Every URL pattern of the project, as anonymous, viewer, evaluator and admin: who gets the page.

The walk covers every pattern get_resolver() knows (the admin's and django-rq's included), with ids of
real rows, so a view added without a login or role check answers 200 to someone it should not, and this
test names it. A GET is enough to tell: views that only take POST answer 405 before doing anything.
"""
import pytest
from django.contrib.contenttypes.models import ContentType
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from crawlweb.models import Page
from frontier.models import Target
from labeling.creation import create_evaluation
from labeling.models import Assignment
from tests.labeling.conftest import make_crawl, make_user

pytestmark = pytest.mark.django_db
PUBLIC = {"labeling:login", "admin:login"}  # the only pages anyone may see
PUBLIC_REDIRECTS = {"favicon"}  # /favicon.ico: a redirect to the icon's static file, for anyone
# The pages each group reaches (200) besides PUBLIC; every other page answers a redirect to a login, 403 or 404.
REPORTS = {"labeling:index", "labeling_report:reports", "labeling_report:report", "labeling_report:items",
           "labeling_report:report_download"}
# Evaluators judge blind: their own card, never a report (labeling.permissions).
REACHES = {"viewer": REPORTS, "evaluator": {"labeling:index", "labeling:help", "labeling:judge"}}
# Refused: a redirect to a login page, 401 (django-rq's token API), 403, 404, 405 (POST-only views).
DENIED = (302, 401, 403, 404, 405)


def arguments_of(pattern) -> list[str]:
    return list(pattern.pattern.regex.groupindex)


def named_patterns(patterns=None, namespace="", outer=()):
    """(full name, the pattern's arguments, including those of the resolvers it sits in, its route)."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}:{pattern.namespace}" if namespace and pattern.namespace else (
                pattern.namespace or namespace)
            yield from named_patterns(pattern.url_patterns, inner, (*outer, *arguments_of(pattern)))
        elif isinstance(pattern, URLPattern):
            if not pattern.name and namespace == "admin":
                continue  # the admin's old-style "<id>/" URL: a redirect to the named change page
            assert pattern.name, f"unnamed URL pattern {pattern.pattern}: name it so this walk can reach it"
            yield (f"{namespace}:{pattern.name}" if namespace else pattern.name,
                   [*outer, *arguments_of(pattern)], pattern.pattern)


@pytest.fixture
def world(django_user_model):
    crawl = make_crawl(pairs=6)
    people = {"admin": make_user(django_user_model, "root-admin", None),
              "viewer": make_user(django_user_model, "vera", "viewers"),
              "evaluator": make_user(django_user_model, "ana", "evaluators")}
    people["admin"].is_staff = people["admin"].is_superuser = True
    people["admin"].save()
    evaluation = create_evaluation(name="walk", what="pairs", crawls=[crawl], stratify_by="method", sample_size=4,
                                   seed=3, overlap=1.0, purpose="estimate", evaluators=[people["evaluator"]],
                                   created_by=people["admin"])
    assignment = Assignment.objects.filter(evaluation=evaluation, evaluator=people["evaluator"]).first()
    page = Page.objects.filter(crawl=crawl).first()
    target = Target.objects.create(crawl=crawl, url="http://walk.example.rs/", host=page.host, site=page.site)
    ids = {"crawl": crawl.pk, "evaluation": evaluation.pk, "assignment": assignment.pk, "item": assignment.item_id,
           "target": target.pk, "crawl_type": ContentType.objects.get_for_model(crawl).pk, "site": page.site_id}
    return people, ids


def sample_kwargs(name: str, arguments: list[str], ids: dict) -> dict:
    """Values for the pattern's arguments: ids of real rows, so a missing check cannot hide behind a 404."""
    pk = {"frontier:target": ids["target"], "labeling:answer": ids["assignment"], "labeling:copy": ids["assignment"]}
    by_argument = {
        "pk": pk.get(name, ids["evaluation"] if name.startswith("labeling") else ids["crawl"]),
        "crawl_id": ids["crawl"], "item_pk": ids["item"], "module": "M01", "layer": 1, "side": "source",
        "site_id": ids["site"], "queue_name": "crawl",
        "fmt": "csv", "file_name": "pages.jsonl", "kind": "link_predictor", "action": "pause",
        "app_label": "crawlweb", "object_id": str(ids["crawl"]), "content_type_id": ids["crawl_type"],
    }
    return {arg: by_argument.get(arg, 0 if arg.endswith("_index") else "x") for arg in arguments}


def urls(ids):
    seen = set()
    for name, arguments, route in named_patterns():
        if name.endswith("logout"):
            continue  # ends the session the walk goes on with; it reveals nothing
        try:
            url = reverse(name, kwargs=sample_kwargs(name, arguments, ids))
        except Exception as error:  # noqa: BLE001 - say which pattern the walk could not build
            pytest.fail(f"cannot build a URL for {name} ({route}): {error}")
        if url not in seen:
            seen.add(url)
            yield name, url


def is_login_redirect(response) -> bool:
    return response.status_code == 302 and "login" in response["Location"]


def test_anonymous_people_see_only_the_login_pages(client, world):
    _, ids = world
    wrong = []
    for name, url in urls(ids):
        response = client.get(url)
        if name in PUBLIC_REDIRECTS:
            ok = response.status_code == 301
        else:
            ok = response.status_code == 200 if name in PUBLIC else (
                is_login_redirect(response) or response.status_code in DENIED[1:])
        if not ok:
            wrong.append(f"{name} {url}: {response.status_code}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("role", ["viewer", "evaluator"])
def test_each_group_reaches_its_own_pages_and_nothing_else(client, world, role):
    people, ids = world
    client.force_login(people[role])
    wrong = []
    for name, url in urls(ids):
        status = client.get(url).status_code
        allowed = REACHES[role] | PUBLIC | PUBLIC_REDIRECTS
        if (name in allowed and status != 200 and name not in PUBLIC | PUBLIC_REDIRECTS) or (
                name not in allowed and status not in DENIED):
            wrong.append(f"{name} {url}: {status}")
    assert not wrong, "\n".join(wrong)


def test_an_admin_reaches_every_page_of_the_project_without_a_server_error(client, world):
    people, ids = world
    client.force_login(people["admin"])
    client.raise_request_exception = False
    wrong = [f"{name} {url}: {status}" for name, url in urls(ids) if (status := client.get(url).status_code) >= 500]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("role", ["viewer", "evaluator"])
def test_a_signed_in_evaluator_or_viewer_is_told_no_on_the_console_not_sent_to_the_admin_login(client, world, role):
    """The crawl console (dashboard, crawls, sites, pairs, harvest, jobs, exports) answers a signed-in
    non-staff account with the 403 page and its way home; the admin's log-in refused them without one."""
    people, ids = world
    client.force_login(people[role])
    wrong = []
    for name, url in urls(ids):
        if url.startswith(("/admin/", "/django-rq/")) or name in REACHES[role] | PUBLIC | PUBLIC_REDIRECTS:
            continue  # the admin's and django-rq's pages keep the admin's own log-in
        response = client.get(url)
        if response.status_code == 302 and "/admin/login/" in response["Location"]:
            wrong.append(f"{name} {url}: sent to the admin's log-in")
    assert not wrong, "\n".join(wrong)
