from django.db import models
from django.db.models import F
from django.utils import timezone


class Crawl(models.Model):
    """One crawl run: its configuration and its state."""

    class State(models.TextChoices):
        NEW = "new"
        RUNNING = "running"
        PAUSED = "paused"
        STOPPED = "stopped"
        FINISHED = "finished"

    class Strategy(models.TextChoices):
        BREADTH_FIRST = "bfs", "Breadth-first"
        FC = "fc", "FC: forward crawl, random order"
        FOCC = "focc", "FocC: focused crawl (topic filter)"
        OBFC = "obfc", "OBFC: back/forward crawl"
        COBFC = "cobfc", "COBFC: back/forward crawl with link classifiers"

    name = models.CharField(max_length=200)
    seed_list = models.ForeignKey("crawlweb.SeedList", null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="crawls")
    strategy = models.CharField(max_length=20, choices=Strategy.choices, default=Strategy.BREADTH_FIRST)
    state = models.CharField(max_length=20, choices=State.choices, default=State.NEW, db_index=True)
    page_budget = models.PositiveIntegerField(default=1000)
    pages_fetched = models.PositiveIntegerField(default=0)
    source_language = models.CharField(max_length=12, default="sr")
    target_language = models.CharField(max_length=12, default="en")
    follow_out_of_site = models.BooleanField(default=True,
                                             help_text="Also schedule links that leave the site they were found on.")
    max_depth = models.PositiveIntegerField(default=20)
    parallel_steps = models.PositiveSmallIntegerField(
        default=1, help_text="Crawl-step jobs kept in flight at once (one per worker you want busy).")
    config = models.JSONField(default=dict, blank=True,
                              help_text="Further settings: url rules, modules and weights.")
    time_limit_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="Wall-clock seconds a run may last (pauses included); then it finishes.")
    deadline_at = models.DateTimeField(null=True, blank=True,
                                       help_text="When the time limit runs out; set each time the crawl starts.")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    status_message = models.CharField(max_length=300, blank=True,
                                      help_text="Why the crawl is in its state, e.g. 'time limit reached'.")
    # The embedded mode (no REDIS_URL) runs a crawl's steps in threads of one process: which one, and
    # when it last said it lives, tell a crawl someone runs from one its process left behind when it
    # died (crawlweb/jobs/chain_runner.py). Empty when RQ workers run the steps.
    runner = models.CharField(max_length=200, blank=True, editable=False,
                              help_text="Embedded mode: the process running the crawl's steps (host, pid, start).")
    runner_seen_at = models.DateTimeField(null=True, blank=True, editable=False,
                                          help_text="When that process last said it still runs them.")
    # A finished crawl its follow-ups ran again for the pages they found after its end (the deep-page
    # guesses of the pass that follows the finish: crawl_control.resume_finished_crawl); counted since
    # the crawl was last started, so the rounds stay bounded.
    resumed_rounds = models.PositiveSmallIntegerField(
        default=0, editable=False,
        help_text="Times the crawl ran again after finishing, for pages its follow-ups found, since its last start.")

    class Meta:
        ordering = ["-id"]

    def __str__(self):
        return f"{self.name} (#{self.pk})"

    @property
    def budget_left(self) -> int:
        return max(0, self.page_budget - self.pages_fetched)

    @property
    def time_is_up(self) -> bool:
        return self.deadline_at is not None and timezone.now() >= self.deadline_at

    def count_fetched(self, n: int = 1) -> None:
        """Add to the fetched-page counter atomically, so concurrent workers never lose a count."""
        Crawl.objects.filter(pk=self.pk).update(pages_fetched=F("pages_fetched") + n)
