"""The scores on a pair's card (an improve evaluation that shows the machine's signals): each shown
once, by its name in the method; a flag as yes/no."""
import re

import pytest
from django.urls import reverse

from labeling.models import Assignment

pytestmark = pytest.mark.django_db


def test_each_score_is_shown_once_and_a_flag_reads_yes_or_no(login, people, evaluation):
    first = Assignment.objects.filter(evaluation=evaluation, evaluator=people["ana"]).order_by("order").first()
    pair = first.item.pair
    pair.similarity, pair.sim_same, pair.sim_pattern = 0.25, 0.5, 0.125
    pair.scores = {"sim": 0.25, "sim_same": 0.5, "sim_pattern": 0.125, "sim_undefined": True, "length_ratio": 1.144}
    pair.save()
    type(evaluation).objects.filter(pk=evaluation.pk).update(purpose="improve", show_machine_signals=True)
    body = login(people["ana"]).get(reverse("labeling:judge", args=[evaluation.pk])).content.decode()
    shown = re.findall(r"<dt>([^<]+)</dt><dd class=\"num\">([^<]+)</dd>", body)
    assert [label for label, _ in shown if label != "Pattern credibility"] == [
        "Sim (Def. 9)", "Sim_Same", "Sim_Pattern", "length_ratio", "sim_undefined"]
    assert {label: value for label, value in shown if label != "Pattern credibility"} == {
        "Sim (Def. 9)": "0.250", "Sim_Same": "0.500", "Sim_Pattern": "0.125", "length_ratio": "1.144",
        "sim_undefined": "yes"}
