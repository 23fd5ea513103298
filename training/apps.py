from django.apps import AppConfig


class TrainingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "training"
    verbose_name = "Retraining from judgments"

    def ready(self):
        from training import signals  # noqa: F401  (connects the judgment and evaluation-closed triggers)
        from training.promoted import register_uncertainty_sources

        register_uncertainty_sources()
