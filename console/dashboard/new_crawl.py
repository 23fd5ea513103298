"""The dashboard's New crawl form: presets fill it (htmx or a plain GET), a valid POST creates and starts.

Only the fields of the chosen strategy, providers and modules are shown (crawl_setup.field_layout):
changing the strategy or a provider swaps the form in again (htmx); without JavaScript, "Show its fields" does
the same by a GET. (Ticking a module swaps nothing: two quick ticks would race the swap.)"""
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse

from crawlweb.console_access import staff_console
from console.crawl_setup.field_layout import hidden_fields, required_fields
from console.crawl_setup.form import CrawlSetupForm, error_lines, with_preset
from console.crawl_setup.presets import PRESETS
from crawlweb.jobs import crawl_control

# Changing these swaps in the form with the fields they need (the preset select has its own swap).
METHOD_CHOOSERS = ("strategy", "backlink_providers")
SHOW_FIELDS = "show_fields"  # asks for the method's fields without applying the preset again


def _values(form: CrawlSetupForm) -> dict:
    if form.is_bound:
        return {name: form.data.getlist(name) if getattr(field.widget, "allow_multiple_selected", False)
                else form.data.get(name) for name, field in form.fields.items()}
    return {name: form.get_initial_for_field(field, name) for name, field in form.fields.items()}


def _swap_on_change(form: CrawlSetupForm) -> None:
    for name in METHOD_CHOOSERS:
        form.fields[name].widget.attrs.update({
            "hx-get": reverse("dashboard:new_crawl"), "hx-include": "closest form", "hx-target": "#new-crawl",
            "hx-swap": "outerHTML", "hx-trigger": "change", "hx-vals": f'{{"{SHOW_FIELDS}": "1"}}'})


def form_context(form: CrawlSetupForm, errors: list[str] | None = None) -> dict:
    values = _values(form)
    hidden, required = hidden_fields(values), required_fields(values)
    _swap_on_change(form)
    shown = [(form[name], name in required) for name in form.fields if name != "preset" and name not in hidden]
    return {"form": form, "presets": PRESETS, "error_lines": errors or [], "shown_fields": shown}


def filled_form(query) -> CrawlSetupForm:
    """An unbound form showing what the operator had typed (when the query carries the form) with the
    chosen preset's method fields filled in (unless only the method's fields were asked for)."""
    values = CrawlSetupForm.defaults()
    if "name" in query:  # the form itself was sent: an unticked box is absent, so it is off
        for name, field in CrawlSetupForm.base_fields.items():
            values[name] = query.getlist(name) if hasattr(field, "choices") and field.widget.allow_multiple_selected \
                else query.get(name, "")
        values["follow_out_of_site"] = "follow_out_of_site" in query
    preset = "" if SHOW_FIELDS in query else query.get("preset", "")
    return CrawlSetupForm(initial=with_preset(values, preset))


@staff_console
def new_crawl(request):
    if request.method != "POST":
        template = "dashboard/_new_crawl_form.html" if request.headers.get("HX-Request") else "dashboard/new_crawl.html"
        response = render(request, template, form_context(filled_form(request.GET)))
        response["Vary"] = "HX-Request"
        return response
    form = CrawlSetupForm(request.POST)
    if not form.is_valid():
        return render(request, "dashboard/new_crawl.html", form_context(form, error_lines(form)), status=400)
    crawl = form.create_crawl()
    crawl_control.start_crawl(crawl, extra_urls=form.cleaned_data["start_urls"])
    messages.success(request, f"Crawl {crawl} started.")
    return redirect("dashboard:crawl", pk=crawl.pk)
