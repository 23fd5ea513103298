"""Running counts of a crawl's rows, kept by database triggers (crawlweb.tallies) so the dashboard
reads a few hundred rows instead of counting millions.

Each tally row is one change (a delta, folded=False) or the folded sum of earlier changes of one key
(folded=True, one per key). Triggers only ever insert deltas: two workers changing Targets of the
same crawl never wait for one counter row. A key's count is the sum of its rows; crawlweb.tallies.fold
merges deltas into the folded row now and then, so the rows read stay few.

crawl_id and member_id are plain numbers, not foreign keys: triggers write them while a crawl's rows
are being deleted (a trigger on the crawl table drops its tallies once the crawl row is gone).
Labels are text: a longer state or error kind in the source table must never fail its write here.
"""
from django.db import models
from django.db.models import Q


class Tally(models.Model):
    crawl_id = models.BigIntegerField()
    n = models.BigIntegerField(help_text="Rows added (negative: removed) by this change, or the folded sum.")
    folded = models.BooleanField(default=False)

    class Meta:
        abstract = True


class TargetTally(Tally):
    """frontier.Target rows per crawl, state, origin and error kind."""

    state = models.TextField()
    origin = models.TextField()
    error_kind = models.TextField()

    class Meta:
        indexes = [models.Index(fields=["crawl_id", "folded"], name="targettally_crawl")]
        constraints = [models.UniqueConstraint(fields=["crawl_id", "state", "origin", "error_kind"],
                                               condition=Q(folded=True), name="targettally_one_folded")]


class PageTally(Tally):
    """crawlweb.Page rows per crawl, language and script."""

    language = models.TextField()
    script = models.TextField()

    class Meta:
        indexes = [models.Index(fields=["crawl_id", "folded"], name="pagetally_crawl")]
        constraints = [models.UniqueConstraint(fields=["crawl_id", "language", "script"],
                                               condition=Q(folded=True), name="pagetally_one_folded")]


class LayerTally(Tally):
    """frontier.LayerPlacement rows per crawl and module layer, split by whether their Target is pending."""

    module = models.TextField()
    layer = models.SmallIntegerField()
    layer_id = models.TextField()
    pending = models.BooleanField()

    class Meta:
        indexes = [models.Index(fields=["crawl_id", "folded"], name="layertally_crawl")]
        constraints = [models.UniqueConstraint(fields=["crawl_id", "module", "layer", "layer_id", "pending"],
                                               condition=Q(folded=True), name="layertally_one_folded")]


class MemberTally(Tally):
    """Rows per member of a crawl's figure: per host, its Targets pending or leased ("host-work");
    per site, its pages ("site-pages"). A member counts in the figure while its sum is positive."""

    figure = models.TextField()
    member_id = models.BigIntegerField()

    class Meta:
        indexes = [
            # one member's rows, folded or not (a host's work, when its clock is read)
            models.Index(fields=["crawl_id", "figure", "member_id"], name="membertally_member"),
            # a figure's deltas (reads correct the folded count by them; folds take them)
            models.Index(fields=["crawl_id", "figure", "folded"], name="membertally_deltas"),
        ]
        constraints = [models.UniqueConstraint(fields=["crawl_id", "figure", "member_id"],
                                               condition=Q(folded=True), name="membertally_one_folded")]


class MemberCount(models.Model):
    """How many members of a crawl's figure had a positive folded sum at the last fold (written by
    folds only, one at a time per crawl); reads add the change their unfolded deltas make."""

    crawl_id = models.BigIntegerField()
    figure = models.TextField()
    n = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["crawl_id", "figure"], name="membercount_one")]
