from django.apps import AppConfig


class TrainingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "training"
    verbose_name = "Retraining from judgments"

    def ready(self):
        from training import signals  # noqa: F401  (connects the judgment and evaluation-closed triggers)
        from evaluation import trained_models as scoring_models
        from frontier import trained_models as frontier_models
        from training.services import promoted

        promoted.register_uncertainty_sources()
        # The floors below read the promoted models through these hooks (they never import training).
        frontier_models.provide(promoted.link_predictor, promoted.detector_min_likelihood)
        scoring_models.provide(promoted.pair_deciders)
