"""The evaluator's queue: the next item, storing a verdict once, undo, progress and pace."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.db.models import Case, Count, F, IntegerField, Subquery, When, Window

from crawlweb.prepared_query import PreparedQuery
from labeling.judgment_insert import insert_judgment
from labeling.keys import key_for
from labeling.models import Assignment, Evaluation, Judgment

PACE_WINDOW = 20  # the pace is read from the evaluator's last judgments
PACE_SECONDS_CAP = 120.0  # a break away from the screen should not make the pace look slow forever
MAX_SECONDS = 3600.0


class JudgingError(ValueError):
    """An answer that cannot be stored (unknown key, closed evaluation)."""


@dataclass(frozen=True)
class Progress:
    done: int
    total: int
    pace: float | None  # judgments per minute

    @property
    def percent(self) -> float:
        return 100.0 * self.done / self.total if self.total else 100.0


@lru_cache(maxsize=None)
def _next_query(related: tuple[str, ...], deferred: tuple[str, ...]) -> PreparedQuery:
    def build(p):
        # The queue's first unjudged id is found on its own (the queue index, in order), so the joins
        # for the card apply to that one row: in one query with a LIMIT, PostgreSQL may join the
        # whole remaining queue with its pages and sort it.
        first_unjudged = (Assignment.objects.filter(evaluation_id=p["evaluation"], evaluator_id=p["evaluator"],
                                                    judgment__isnull=True).order_by("order").values("pk")[:1])
        return (Assignment.objects.filter(pk=Subquery(first_unjudged))
                .select_related("item", *related).defer(*deferred)[:1])
    return PreparedQuery(build, "evaluation", "evaluator")


def next_assignment(evaluation: Evaluation, user, related: tuple[str, ...] = (),
                    deferred: tuple[str, ...] = ()) -> Assignment | None:
    """The first unjudged assignment of the queue, with ``related`` rows read in the same query
    (``deferred`` columns of them left unread); its evaluation is the one given, not read again."""
    assignment = _next_query(tuple(related), tuple(deferred)).first(evaluation=evaluation.pk, evaluator=user.pk)
    if assignment is not None:
        assignment.evaluation = assignment.item.evaluation = evaluation
    return assignment


def record(assignment: Assignment, verdict: str, category: str, seconds: float | None) -> tuple[Judgment, bool]:
    """Store the verdict unless the assignment is judged already: then nothing changes (a
    resubmitted form after a reload or a lost answer judges nothing twice). Returns (judgment, new)."""
    if not assignment.evaluation.is_open:
        raise JudgingError("this evaluation is closed")
    if key_for(assignment.evaluation.what, verdict, category) is None:
        raise JudgingError(f"{verdict!r} {category!r} is not an answer to this kind of item")
    if seconds is not None:
        seconds = min(max(seconds, 0.0), MAX_SECONDS)
    try:  # read with the assignment when it was selected with select_related("judgment")
        return assignment.judgment, False
    except Judgment.DoesNotExist:
        pass
    judgment = insert_judgment(assignment, verdict, category, seconds)
    if judgment is None:  # the same answer raced in from a second tab
        return Judgment.objects.get(assignment=assignment), False
    return judgment, True


def undo_last(evaluation: Evaluation, user) -> Assignment | None:
    """Take back the evaluator's most recent judgment in this evaluation; its item comes next again."""
    if not evaluation.is_open:
        raise JudgingError("this evaluation is closed")
    last = (Judgment.objects.filter(assignment__evaluation=evaluation, assignment__evaluator=user)
            .select_related("assignment").order_by("-created_at", "-id").first())
    if last is None:
        return None
    last.delete()
    return last.assignment


def _build_progress(p):
    timed = Case(When(judgment__seconds__isnull=False, then=1), default=0, output_field=IntegerField())
    return (Assignment.objects.filter(evaluation_id=p["evaluation"], evaluator_id=p["evaluator"])
            .annotate(total=Window(Count("id")), done=Window(Count("judgment")), timed=timed)
            .order_by("-timed", F("judgment__created_at").desc(nulls_last=True), "-judgment__id")
            .values_list("total", "done", "timed", "judgment__seconds")[:PACE_WINDOW])


_PROGRESS = PreparedQuery(_build_progress, "evaluation", "evaluator")


def progress(evaluation: Evaluation, user) -> Progress:
    """Done, total and pace in one query over the evaluator's queue: the counts are window
    aggregates over the whole queue, and its timed judgments come first, newest first, so the
    first rows are the pace's window."""
    rows = _PROGRESS.rows(evaluation=evaluation.pk, evaluator=user.pk)
    if not rows:
        return Progress(done=0, total=0, pace=None)
    total, done = rows[0][0], rows[0][1]
    recent = [seconds for _, _, is_timed, seconds in rows if is_timed]
    spent = sum(min(s, PACE_SECONDS_CAP) for s in recent)
    pace = 60.0 * len(recent) / spent if recent and spent > 0 else None
    return Progress(done=done, total=total, pace=pace)
