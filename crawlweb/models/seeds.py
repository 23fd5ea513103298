from django.db import models

from crawlweb.seed_import import MAX_LABEL_LENGTH, MAX_URL_LENGTH


class SeedList(models.Model):
    """A named list of start URLs that operators manage in the admin and crawls start from."""

    name = models.CharField(max_length=200, unique=True)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class Seed(models.Model):
    seed_list = models.ForeignKey(SeedList, on_delete=models.CASCADE, related_name="seeds")
    url = models.URLField(max_length=MAX_URL_LENGTH)
    label = models.CharField(max_length=MAX_LABEL_LENGTH, blank=True,
                             help_text="Optional label from the imported file, e.g. 'bilingual'.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["seed_list", "url"], name="seed_unique_per_list")]

    def __str__(self):
        return self.url
