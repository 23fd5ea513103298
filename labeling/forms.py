"""The admin's form that creates an evaluation, and the evaluator's answer."""
from __future__ import annotations

import secrets

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q

from crawlweb.models import Crawl
from labeling.models import Evaluation
from labeling.models.evaluations import MACHINE_SIGNALS_ON_ESTIMATE
from labeling.permissions import ADMINS, EVALUATORS
from labeling.populations import population
from labeling.sampling import strata_sizes

MAX_SAMPLE_SIZE = 100_000


def new_seed() -> int:
    return secrets.randbelow(2 ** 31)


def judges():
    return (get_user_model().objects.filter(Q(groups__name__in=[EVALUATORS, ADMINS]) | Q(is_superuser=True),
                                            is_active=True).distinct().order_by("username"))


class EvaluationForm(forms.Form):
    name = forms.CharField(max_length=200)
    what = forms.ChoiceField(choices=Evaluation.What.choices, initial=Evaluation.What.PAIRS, label="What to judge")
    crawls = forms.ModelMultipleChoiceField(queryset=Crawl.objects.order_by("-id"),
                                            widget=forms.CheckboxSelectMultiple)
    stratify_by = forms.ChoiceField(choices=Evaluation.StratifyBy.choices, initial=Evaluation.StratifyBy.METHOD)
    sample_size = forms.IntegerField(min_value=1, max_value=MAX_SAMPLE_SIZE, initial=385,
                                     label="Sample size per stratum")
    seed = forms.IntegerField(min_value=0, max_value=2 ** 63 - 1, label="Random seed",
                              help_text="Stored: the same seed draws the same sample again.")
    overlap = forms.FloatField(min_value=0.0, max_value=1.0, initial=0.2, label="Overlap share",
                               help_text="Share of the items judged by two evaluators (0–1).")
    purpose = forms.ChoiceField(choices=Evaluation.Purpose.choices, initial=Evaluation.Purpose.ESTIMATE,
                                widget=forms.RadioSelect)
    show_machine_signals = forms.BooleanField(required=False, initial=False,
                                              label=Evaluation._meta.get_field("show_machine_signals").verbose_name,
                                              help_text=Evaluation._meta.get_field("show_machine_signals").help_text)
    evaluators = forms.ModelMultipleChoiceField(queryset=judges(), widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["evaluators"].queryset = judges()
        self.strata: dict[str, int] = {}

    def clean(self):
        data = super().clean()
        evaluators, overlap = data.get("evaluators"), data.get("overlap")
        if data.get("show_machine_signals") and data.get("purpose") != Evaluation.Purpose.IMPROVE:
            self.add_error("show_machine_signals", MACHINE_SIGNALS_ON_ESTIMATE)
        if evaluators is not None and overlap and len(evaluators) < 2:
            self.add_error("overlap", "An overlap needs at least two evaluators; choose another or set it to 0.")
        if data.get("crawls") and data.get("what") and data.get("stratify_by"):
            self.strata = strata_sizes(population(data["what"], [c.pk for c in data["crawls"]], data["stratify_by"]))
            if not self.strata:
                what = Evaluation.What(data["what"]).label.lower()
                self.add_error("crawls", f"The chosen crawls have no {what} to sample.")
        return data
