"""The menu leads each group to the pages it may use: reports for admins and reviewers (never for
evaluators: blind judging), training for admins, and
from the admin's list of evaluations to each one's report and disagreements."""
import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

REPORTS, TRAINING = reverse("labeling_report:reports"), reverse("training:index")


def menu_links(client) -> set[str]:
    html = client.get(reverse("labeling:index")).content.decode()
    nav = html.split("<nav>", 1)[1].split("</nav>", 1)[0]
    return {href for href in (REPORTS, TRAINING) if f'href="{href}"' in nav}


@pytest.mark.parametrize("who, links", [("admin", {REPORTS, TRAINING}), ("ana", set()), ("vera", {REPORTS})])
def test_the_menu_shows_reports_to_readers_and_training_to_admins(login, people, who, links):
    assert menu_links(login(people[who])) == links


def test_the_admins_list_of_evaluations_links_each_report_and_its_disagreements(login, people, evaluation):
    html = login(people["admin"]).get(reverse("labeling:index")).content.decode()
    assert f'href="{reverse("labeling_report:report", args=[evaluation.pk])}"' in html
    assert f'href="{reverse("labeling_report:disagreements", args=[evaluation.pk])}"' in html
