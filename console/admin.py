from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db import models
from django.forms.fields import InvalidJSONInput, JSONString
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django_rq.admin import QueueAdmin
from django_rq.models import Dashboard

from crawlweb import bounded_json
from crawlweb.admin_accessible import LABELLED_DATETIME, NamedEmptyValues
from console.admin_filters import HostsWithWorkInCrawl, PolitenessClock, SitesSeenByCrawl
from crawlweb.login_throttle import ThrottledAdminLoginForm
from crawlweb.not_found import NO_REDIS
from crawlweb.models import Crawl, Host, Link, Page, Seed, SeedList, Site
from crawlweb.services.crawl_config import CrawlConfig, error_lines
from crawlweb.services.seeds import import_seeds


admin.site.login_form = ThrottledAdminLoginForm  # failed logins counted per account and address


class SeedFileForm(forms.Form):
    file = forms.FileField(help_text="A text file with one URL a line, or a CSV file: url[,label].")


# A scheme-less URL typed by an operator means https (Django 6's default; said now, not warned about).
URL_FIELDS = {models.URLField: {"assume_scheme": "https"}}


class SeedInline(admin.TabularInline):
    model = Seed
    formfield_overrides = URL_FIELDS
    extra = 0
    fields = ("url", "label", "created_at")
    readonly_fields = ("created_at",)


@admin.register(SeedList)
class SeedListAdmin(admin.ModelAdmin):
    list_display = ("name", "seed_count", "created_at")
    search_fields = ("name", "description")
    inlines = [SeedInline]
    change_form_template = "admin/crawlweb/seedlist/change_form.html"

    @admin.display(description="seeds")
    def seed_count(self, obj):
        return obj.seeds.count()

    def get_urls(self):
        return [path("<int:pk>/import/", self.admin_site.admin_view(self.import_view),
                     name="crawlweb_seedlist_import")] + super().get_urls()

    def import_view(self, request, pk):
        seed_list = self.get_object(request, str(pk))
        if seed_list is None or not self.has_change_permission(request, seed_list):
            return redirect("admin:crawlweb_seedlist_changelist")
        form = SeedFileForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["file"]
            added, errors = import_seeds(seed_list, upload.read(), upload.name)
            refused = next((error for error in errors if error.whole_file), None)
            if refused is not None:
                messages.error(request, f"Nothing imported from {upload.name}: {refused.problem}")
            else:
                messages.success(request, f"{added} seeds added from {upload.name}.")
            for error in errors:
                if not error.whole_file:
                    messages.warning(request, f"Skipped {error}")
            return redirect(reverse("admin:crawlweb_seedlist_change", args=[seed_list.pk]))
        context = {**self.admin_site.each_context(request), "form": form, "seed_list": seed_list,
                   "opts": self.model._meta, "title": f"Import seeds into {seed_list}"}
        return render(request, "admin/crawlweb/seedlist/import.html", context)


@admin.register(Seed)
class SeedAdmin(admin.ModelAdmin):
    formfield_overrides = URL_FIELDS
    list_display = ("url", "label", "seed_list", "created_at")
    list_filter = ("seed_list", "label")
    search_fields = ("url", "label")


class BoundedJSONField(forms.JSONField):
    """The admin's JSON field, with the nesting of what is typed bounded before it is parsed
    (crawlweb.bounded_json): 3,000 nested [ were a RecursionError and a 500, here and on re-display."""

    def to_python(self, value):
        if isinstance(value, str) and not self.disabled and value not in self.empty_values:
            try:
                converted = bounded_json.loads(value)
            except bounded_json.JsonInputError as error:
                raise ValidationError(str(error), code="invalid") from None
            return JSONString(converted) if isinstance(converted, str) else converted
        return super().to_python(value)

    def bound_data(self, data, initial):
        if isinstance(data, str) and bounded_json.text_depth(data) > bounded_json.MAX_DEPTH:
            return InvalidJSONInput(data)  # shown back as typed, never parsed
        return super().bound_data(data, initial)


class CrawlForm(forms.ModelForm):
    class Meta:
        model = Crawl
        fields = "__all__"
        field_classes = {"config": BoundedJSONField}

    def clean_config(self):
        config = self.cleaned_data["config"]
        config = {} if config is None else config  # an emptied field means no further settings
        try:
            CrawlConfig.from_dict(config)
        except ValidationError as error:  # keyed by config key: a form field takes a list of messages
            raise ValidationError(error_lines(error)) from None
        return config


@admin.register(Crawl)
class CrawlAdmin(admin.ModelAdmin):
    form = CrawlForm
    formfield_overrides = LABELLED_DATETIME
    list_display = ("name", "state", "strategy", "pages_fetched", "page_budget", "created_at")
    list_filter = ("state", "strategy")
    search_fields = ("name",)
    readonly_fields = ("pages_fetched", "started_at", "finished_at", "last_error", "runner", "runner_seen_at",
                       "resumed_rounds")


@admin.register(Site)
class SiteAdmin(admin.ModelAdmin):
    list_display = ("name", "registrable_domain", "created_at")
    list_filter = (SitesSeenByCrawl,)
    search_fields = ("name", "registrable_domain")


@admin.register(Host)
class HostAdmin(admin.ModelAdmin):
    list_display = ("name", "site", "robots_status", "crawl_delay", "next_fetch_at", "busy_until")
    list_filter = (HostsWithWorkInCrawl, PolitenessClock, "robots_status")
    search_fields = ("name",)
    raw_id_fields = ("site",)


class LinkInline(admin.TabularInline):
    model = Link
    extra = 0
    fields = ("kind", "target_url", "anchor_text", "img_alt", "img_src", "hreflang", "out_of_site")
    readonly_fields = fields
    can_delete = False
    show_change_link = True


@admin.register(Page)
class PageAdmin(admin.ModelAdmin):
    list_display = ("final_url", "status_code", "language", "script", "content_type", "size", "fetched_at")
    list_filter = ("crawl", ("language", NamedEmptyValues), ("script", NamedEmptyValues), "status_code",
                   ("content_type", NamedEmptyValues), "truncated")
    search_fields = ("url", "final_url", "title", "md5")
    raw_id_fields = ("crawl", "site", "host")
    readonly_fields = ("md5", "fetched_at")
    inlines = [LinkInline]


@admin.register(Link)
class LinkAdmin(admin.ModelAdmin):
    list_display = ("target_url", "kind", "anchor_text", "hreflang", "out_of_site")
    list_filter = ("kind", "out_of_site", "hreflang")
    search_fields = ("target_url", "anchor_text", "img_alt", "img_src")
    raw_id_fields = ("page",)


class JobsDashboardAdmin(QueueAdmin):
    """django-rq's admin link to its dashboard is a model without a table (Dashboard, managed = False):
    it has no object to change, delete or show the history of, and those pages queried the missing
    table (a 500). They answer 404; the link and the dashboard's own pages stay as django-rq makes them."""

    def get_object(self, request, object_id, from_field=None):
        raise Http404("the jobs dashboard has no objects")

    def changelist_view(self, request, extra_context=None):
        if not settings.REDIS_URL:  # embedded mode: the queues its fallback URL names are not ours
            raise Http404(NO_REDIS)
        return super().changelist_view(request, extra_context)


if admin.site.is_registered(Dashboard):
    admin.site.unregister(Dashboard)
    admin.site.register(Dashboard, JobsDashboardAdmin)
