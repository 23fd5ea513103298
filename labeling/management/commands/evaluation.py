"""python manage.py evaluation create …: an evaluation from the command line (the demo, scripts)."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from crawlweb.models import Crawl
from labeling.creation import create_evaluation
from labeling.forms import EvaluationForm, new_seed


class Command(BaseCommand):
    help = "Create an evaluation: draw its sample from crawls and assign it to evaluators."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        create = sub.add_parser("create", help="draw a sample and assign it")
        create.add_argument("--name", required=True)
        create.add_argument("--what", default="pairs", help="pairs, sites or links")
        create.add_argument("--crawl", type=int, action="append", required=True, help="crawl id (repeatable)")
        create.add_argument("--stratify-by", default="method", help="method, verdict or site")
        create.add_argument("--size", type=int, default=385, help="sample size per stratum")
        create.add_argument("--seed", type=int, default=None, help="random seed (default: a new one)")
        create.add_argument("--overlap", type=float, default=0.2)
        create.add_argument("--purpose", default="estimate", help="estimate or improve")
        create.add_argument("--evaluator", action="append", required=True, help="user name (repeatable)")
        create.add_argument("--show-machine-signals", action="store_true",
                            help="improve evaluations only: the card shows the machine's decision and scores")

    def handle(self, *args, **o):
        users = get_user_model().objects.filter(username__in=o["evaluator"])
        missing = sorted(set(o["evaluator"]) - set(users.values_list("username", flat=True)))
        if missing:
            raise CommandError(f"no such user: {', '.join(missing)}")
        # The admin's form checks everything (choices, ranges, who may judge, an empty population).
        form = EvaluationForm({"name": o["name"], "what": o["what"], "crawls": o["crawl"],
                               "stratify_by": o["stratify_by"], "sample_size": o["size"],
                               "seed": new_seed() if o["seed"] is None else o["seed"], "overlap": o["overlap"],
                               "purpose": o["purpose"], "evaluators": [u.pk for u in users],
                               "show_machine_signals": o["show_machine_signals"]})
        if not form.is_valid():
            problems = "; ".join(f"{name}: {' '.join(errors)}" for name, errors in form.errors.items())
            raise CommandError(f"cannot create the evaluation: {problems}")
        evaluation = create_evaluation(**form.cleaned_data)
        self.stdout.write(f"evaluation {evaluation.pk} “{evaluation.name}”: {evaluation.items.count()} items, "
                          f"{evaluation.assignments.count()} assignments, seed {evaluation.seed}")
