from django.contrib import admin

from crawlweb.admin_accessible import NamedEmptyValues
from frontier.models import LayerPlacement, SiteVerdict, Target


class PlacementInline(admin.TabularInline):
    model = LayerPlacement
    extra = 0
    fields = ("module", "layer_id", "rule", "evidence", "rank")
    readonly_fields = fields
    can_delete = False


@admin.register(Target)
class TargetAdmin(admin.ModelAdmin):
    list_display = ("url", "crawl", "state", "origin", "priority", "depth", "status_code", "error_kind", "attempts")
    list_filter = ("crawl", "state", "origin", ("error_kind", NamedEmptyValues))
    search_fields = ("url", "anchor_text")
    raw_id_fields = ("crawl", "host", "site", "source_page", "page")
    readonly_fields = ("lease_owner", "lease_expires_at", "attempts", "fetched_at", "created_at")
    inlines = [PlacementInline]


@admin.register(LayerPlacement)
class LayerPlacementAdmin(admin.ModelAdmin):
    list_display = ("target", "module", "layer_id", "rule", "rank")
    # By crawl and Target state: the dashboard's layer counts link here.
    list_filter = ("target__crawl", "target__state", "module", "layer_id", "rule")
    search_fields = ("target__url",)
    raw_id_fields = ("target",)


@admin.register(SiteVerdict)
class SiteVerdictAdmin(admin.ModelAdmin):
    """The verdicts a crawl stored per site, with the evidence behind each (what the dashboard links to)."""
    list_display = ("site", "crawl", "bilingual", "pages_downloaded", "pages_fetched_at_decision", "decided_at")
    list_filter = ("crawl", "bilingual")
    search_fields = ("site__name",)
    raw_id_fields = ("crawl", "site", "page")
    readonly_fields = ("decided_at",)
