from django.contrib import admin

from training.models import TrainedModel, TrainingRun


@admin.register(TrainedModel)
class TrainedModelAdmin(admin.ModelAdmin):
    list_display = ("kind", "version", "state", "reason", "created_at", "promoted_at")
    list_filter = ("kind", "state")
    readonly_fields = ("kind", "version", "params", "metrics", "trained_on", "state", "reason", "run",
                       "created_at", "promoted_at")


@admin.register(TrainingRun)
class TrainingRunAdmin(admin.ModelAdmin):
    list_display = ("id", "trigger", "state", "evaluation", "created_at", "finished_at")
    list_filter = ("trigger", "state")
    readonly_fields = ("trigger", "evaluation", "requested_by", "state", "summary", "error", "created_at",
                       "finished_at")
