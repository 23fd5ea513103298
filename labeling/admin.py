from django.contrib import admin

from labeling.models import Adjudication, Assignment, Evaluation, EvaluationItem, Judgment


@admin.register(Evaluation)
class EvaluationAdmin(admin.ModelAdmin):
    list_display = ("name", "what", "stratify_by", "sample_size", "seed", "overlap", "purpose", "show_machine_signals",
                    "state", "created_at")
    list_filter = ("what", "purpose", "show_machine_signals", "state")
    search_fields = ("name",)
    filter_horizontal = ("crawls", "evaluators")


@admin.register(EvaluationItem)
class EvaluationItemAdmin(admin.ModelAdmin):
    list_display = ("evaluation", "position", "stratum", "purpose", "label")
    list_filter = ("evaluation", "purpose")
    search_fields = ("label", "stratum")
    raw_id_fields = ("pair", "site_verdict", "link")


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = ("evaluation", "evaluator", "order", "item")
    list_filter = ("evaluation", "evaluator")
    raw_id_fields = ("item",)


@admin.register(Judgment)
class JudgmentAdmin(admin.ModelAdmin):
    list_display = ("assignment", "verdict", "category", "seconds", "created_at")
    list_filter = ("verdict", "category", "assignment__evaluation")
    raw_id_fields = ("assignment",)


@admin.register(Adjudication)
class AdjudicationAdmin(admin.ModelAdmin):
    list_display = ("item", "verdict", "category", "by", "at")
    raw_id_fields = ("item",)
