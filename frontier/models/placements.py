from django.db import models

from crawlweb.models import Target


class LayerPlacement(models.Model):
    """Where one frontier module put a Target, and why (module, layer, rule, evidence)."""

    target = models.ForeignKey(Target, on_delete=models.CASCADE, related_name="placements")
    module = models.CharField(max_length=10)
    layer_id = models.CharField(max_length=16, help_text="e.g. M01.L01")
    layer = models.PositiveSmallIntegerField(help_text="1 Primary, 2 Secondary, 3 Reserve")
    rule = models.CharField(max_length=100)
    evidence = models.JSONField(default=dict, blank=True)
    rank = models.FloatField(null=True, blank=True)
    placed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["target_id", "module"]
        constraints = [models.UniqueConstraint(fields=["target", "module"], name="one_placement_per_module")]

    def __str__(self):
        return f"{self.layer_id} ({self.rule})"
