from django.contrib import admin

from evaluation.models import (
    CandidatePair,
    CrawlScoring,
    DeepCheck,
    DiscoveredSite,
    DiscoveryRun,
    ScriptVariant,
    SiteCredibility,
    UrlPattern,
)


@admin.register(UrlPattern)
class UrlPatternAdmin(admin.ModelAdmin):
    list_display = ("label", "crawl", "site", "scope", "frequency", "pages_matched", "site_pages",
                    "local_credibility", "global_credibility_unnormalized")
    list_filter = ("crawl", "scope")
    search_fields = ("source_unit", "target_unit", "site__name")
    raw_id_fields = ("crawl", "site")


@admin.register(SiteCredibility)
class SiteCredibilityAdmin(admin.ModelAdmin):
    list_display = ("site", "crawl", "credibility", "best_pattern", "pages", "linkout", "pagerank", "wpr")
    list_filter = ("crawl",)
    search_fields = ("site__name",)
    raw_id_fields = ("crawl", "site")


@admin.register(CandidatePair)
class CandidatePairAdmin(admin.ModelAdmin):
    list_display = ("source_url", "target_url", "site", "method", "pattern_label", "similarity", "kept", "reason")
    list_filter = ("crawl", "method", "kept", "languages_confirmed")
    search_fields = ("source_url", "target_url", "site__name")
    raw_id_fields = ("crawl", "site", "source_page", "target_page")


@admin.register(ScriptVariant)
class ScriptVariantAdmin(admin.ModelAdmin):
    list_display = ("latin_url", "cyrillic_url", "site", "evidence")
    list_filter = ("crawl",)
    search_fields = ("latin_url", "cyrillic_url")
    raw_id_fields = ("crawl", "site", "latin_page", "cyrillic_page")


@admin.register(DeepCheck)
class DeepCheckAdmin(admin.ModelAdmin):
    list_display = ("page_url", "guessed_url", "expected_language", "exists", "status_code", "outcome", "checked_at")
    list_filter = ("crawl", "exists")
    search_fields = ("page_url", "guessed_url")
    raw_id_fields = ("crawl", "site")


@admin.register(DiscoveredSite)
class DiscoveredSiteAdmin(admin.ModelAdmin):
    list_display = ("iteration", "rank", "host", "sum_linkout", "sum_pr", "sum_wpr", "added_as_seed", "crawl")
    list_filter = ("crawl", "iteration", "added_as_seed")
    search_fields = ("host",)
    raw_id_fields = ("crawl",)


@admin.register(DiscoveryRun)
class DiscoveryRunAdmin(admin.ModelAdmin):
    list_display = ("crawl", "iteration", "iterations", "waiting", "finished", "seeds_added", "updated_at")
    raw_id_fields = ("crawl",)


@admin.register(CrawlScoring)
class CrawlScoringAdmin(admin.ModelAdmin):
    list_display = ("crawl", "passes", "pages_at_last_pass", "last_pass_whole", "pending", "last_pass_at")
    raw_id_fields = ("crawl",)
