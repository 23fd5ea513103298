"""A small evaluation whose report is worked out by hand (see the tests that use it).

Strata (pairs, stratified by method and filter verdict), estimate items unless said:
  hreflang · kept   N 100: i1 ana yes + bo yes · i2 ana yes (bo assigned, not judged yet)
                            · i3 ana no/language_id · i4 bo yes                 → 3 of 4 correct
  local · kept      N 300: i5 ana no/same_language + bo no/same_language
                            · i6 ana yes + bo no/language_id, adjudicated yes
                            · i7 bo partial · i8 ana, bo, cy yes               → 2 of 4 correct
  local · removed   N  50: i9 ana no/false_bilingual · i10 ana yes + bo no (undecided)
  i11: an *improve* item in local · kept, ana yes (must feed no precision figure).
Timing: ana judges every 10 s (the first took 10 s); bo every 20 s with one 600 s break.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from django.contrib.auth.models import Group, User

from crawlweb.models import Crawl, Site
from evaluation.models import CandidatePair
from labeling.models import Adjudication, Assignment, Evaluation, EvaluationItem, Judgment

START = datetime(2025, 1, 6, 9, 0, tzinfo=timezone.utc)

# item: (stratum, N, purpose, method, kept, [(evaluator, verdict, category) or (evaluator, None) for assigned only])
ITEMS = {
    "i1": ("hreflang · kept", 100, "estimate", [("ana", "yes", ""), ("bo", "yes", "")]),
    "i2": ("hreflang · kept", 100, "estimate", [("ana", "yes", ""), ("bo", None, "")]),
    "i3": ("hreflang · kept", 100, "estimate", [("ana", "no", "language_id")]),
    "i4": ("hreflang · kept", 100, "estimate", [("bo", "yes", "")]),
    "i5": ("local · kept", 300, "estimate", [("ana", "no", "same_language"), ("bo", "no", "same_language")]),
    "i6": ("local · kept", 300, "estimate", [("ana", "yes", ""), ("bo", "no", "language_id")]),
    "i7": ("local · kept", 300, "estimate", [("bo", "partial", "")]),
    "i8": ("local · kept", 300, "estimate", [("ana", "yes", ""), ("bo", "yes", ""), ("cy", "yes", "")]),
    "i9": ("local · removed", 50, "estimate", [("ana", "no", "false_bilingual")]),
    "i10": ("local · removed", 50, "estimate", [("ana", "yes", ""), ("bo", "no", "")]),
    "i11": ("local · kept", 300, "improve", [("ana", "yes", "")]),
}
BO_TIMES = [0, 20, 40, 640, 660, 680, 700]  # seconds after START; 40 → 640 is a break


def user(name: str, group: str) -> User:
    person = User.objects.create_user(name, password="pw-" + name)
    person.groups.add(Group.objects.get(name=group))
    return person


def build_evaluation() -> dict:
    people = {name: user(name, "evaluators") for name in ("ana", "bo", "cy")}
    people["admin"] = user("boss", "admins")
    people["viewer"] = user("vera", "viewers")
    crawl = Crawl.objects.create(name="fixture crawl")
    site = Site.objects.create(name="primer.rs")
    evaluation = Evaluation.objects.create(name="Fixture evaluation", seed=7, sample_size=4, created_by=people["admin"])
    evaluation.crawls.add(crawl)
    evaluation.evaluators.add(people["ana"], people["bo"], people["cy"])
    items, order, ana_clock, bo_clock = {}, {}, 0, 0
    for position, (key, (stratum, size, purpose, answers)) in enumerate(ITEMS.items()):
        method, _, verdict = stratum.partition(" · ")
        pair = CandidatePair.objects.create(crawl=crawl, site=site, method=method, kept=verdict == "kept",
                                            source_url=f"http://primer.rs/sr/{key}", target_url=f"http://primer.rs/en/{key}")
        item = EvaluationItem.objects.create(evaluation=evaluation, pair=pair, label=f"{key}: {pair.source_url} ↔ {pair.target_url}",
                                             stratum=stratum, stratum_size=size, purpose=purpose, position=position)
        items[key] = item
        for name, answer, category in answers:
            order[name] = order.get(name, 0) + 1
            assignment = Assignment.objects.create(evaluation=evaluation, item=item, evaluator=people[name], order=order[name])
            if answer is None:
                continue
            if name == "ana":
                at, seconds = START + timedelta(seconds=10 * ana_clock), (10.0 if ana_clock == 0 else None)
                ana_clock += 1
            elif name == "bo":
                at, seconds = START + timedelta(seconds=BO_TIMES[bo_clock]), None
                bo_clock += 1
            else:
                at, seconds = START, 4.0
            judgment = Judgment.objects.create(assignment=assignment, verdict=answer, category=category, seconds=seconds)
            Judgment.objects.filter(pk=judgment.pk).update(created_at=at)
    Adjudication.objects.create(item=items["i6"], verdict="yes", category="", by=people["admin"])
    return {"evaluation": evaluation, "items": items, **people}
