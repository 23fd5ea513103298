from django.contrib import admin

from frontier.models import LayerPlacement, Target


class PlacementInline(admin.TabularInline):
    model = LayerPlacement
    extra = 0
    fields = ("module", "layer_id", "rule", "evidence", "rank")
    readonly_fields = fields
    can_delete = False


@admin.register(Target)
class TargetAdmin(admin.ModelAdmin):
    list_display = ("url", "crawl", "state", "origin", "priority", "depth", "status_code", "error_kind", "attempts")
    list_filter = ("crawl", "state", "origin", "error_kind")
    search_fields = ("url", "anchor_text")
    raw_id_fields = ("crawl", "host", "site", "source_page", "page")
    readonly_fields = ("lease_owner", "lease_expires_at", "attempts", "fetched_at", "created_at")
    inlines = [PlacementInline]


@admin.register(LayerPlacement)
class LayerPlacementAdmin(admin.ModelAdmin):
    list_display = ("target", "module", "layer_id", "rule", "rank")
    list_filter = ("module", "layer_id", "rule")
    search_fields = ("target__url",)
    raw_id_fields = ("target",)
