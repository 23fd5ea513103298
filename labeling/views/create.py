"""An admin creates an evaluation; the form shows the margin of error live (htmx)."""
from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render

from crawlweb.models import Crawl
from labeling.creation import create_evaluation
from labeling.forms import EvaluationForm, MAX_SAMPLE_SIZE, new_seed
from labeling.models import Evaluation
from labeling.permissions import admin_required
from labeling.populations import population
from labeling.sampling import strata_margins, strata_sizes


@admin_required
def new_evaluation(request):
    form = EvaluationForm(request.POST or None, initial={"seed": new_seed()})
    if request.method == "POST" and form.is_valid():
        evaluation = create_evaluation(**form.cleaned_data, created_by=request.user)
        messages.success(request, f"Evaluation “{evaluation.name}” created: {evaluation.items.count()} items "
                                  f"in {len(form.strata)} strata.")
        return redirect("labeling:index")
    return render(request, "labeling/new.html", {"form": form, **margins_context(form.data or None)})


class MarginQuery(forms.Form):
    what = forms.ChoiceField(choices=Evaluation.What.choices)
    crawls = forms.ModelMultipleChoiceField(queryset=Crawl.objects.all())
    stratify_by = forms.ChoiceField(choices=Evaluation.StratifyBy.choices)
    sample_size = forms.IntegerField(min_value=1, max_value=MAX_SAMPLE_SIZE)


def margins_context(data) -> dict:
    query = MarginQuery(data)
    if data is None or not query.is_valid():
        return {"margins": None}
    q = query.cleaned_data
    sizes = strata_sizes(population(q["what"], [c.pk for c in q["crawls"]], q["stratify_by"]))
    margins = strata_margins(sizes, q["sample_size"])
    return {"margins": margins, "sample_total": sum(n for n, _, _ in margins.values()),
            "population_total": sum(sizes.values())}


@admin_required
def margins(request):
    return render(request, "labeling/_margins.html", margins_context(request.GET))
