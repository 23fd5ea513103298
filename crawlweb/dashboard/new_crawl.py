"""The dashboard's New crawl form: presets fill it (htmx or a plain GET), a valid POST creates and starts."""
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.shortcuts import redirect, render

from crawlweb.crawl_setup.form import CrawlSetupForm, error_lines, with_preset
from crawlweb.crawl_setup.presets import PRESETS
from crawlweb.services import crawl_control


def form_context(form: CrawlSetupForm, errors: list[str] | None = None) -> dict:
    return {"form": form, "presets": PRESETS, "error_lines": errors or []}


def filled_form(query) -> CrawlSetupForm:
    """An unbound form showing what the operator had typed (when the query carries the form) with the
    chosen preset's method fields filled in."""
    values = CrawlSetupForm.defaults()
    if "name" in query:  # the form itself was sent: an unticked box is absent, so it is off
        for name, field in CrawlSetupForm.base_fields.items():
            values[name] = query.getlist(name) if hasattr(field, "choices") and field.widget.allow_multiple_selected \
                else query.get(name, "")
        values["follow_out_of_site"] = "follow_out_of_site" in query
    return CrawlSetupForm(initial=with_preset(values, query.get("preset", "")))


@staff_member_required
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
