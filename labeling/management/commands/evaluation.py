"""python manage.py evaluation create …: an evaluation from the command line (the demo, scripts);
python manage.py evaluation add-evaluator NAME: an evaluator's account."""
from __future__ import annotations

import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from labeling.accounts import AccountError, add_evaluator, one_time_password
from labeling.creation import create_evaluation
from labeling.forms import EvaluationForm, new_seed


class Command(BaseCommand):
    stealth_options = ("stdin",)  # call_command(..., stdin=...) in tests, as createsuperuser takes it
    help = "Create an evaluation (draw its sample from crawls and assign it to evaluators), or an evaluator."

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
        evaluator = sub.add_parser("add-evaluator", help="create a user in the evaluators group")
        evaluator.add_argument("name", help="the new user name")
        evaluator.add_argument("--email", default="")
        evaluator.add_argument("--password-stdin", action="store_true",
                               help="read the password from standard input (else one is generated and printed)")

    def handle(self, *args, **o):
        if o["action"] == "add-evaluator":
            self._add_evaluator(o["name"], o["email"], o.get("stdin") or sys.stdin if o["password_stdin"] else None)
        else:
            self._create(o)

    def _add_evaluator(self, name: str, email: str, stdin) -> None:
        """With ``stdin``: the password is its first line; else one is generated and printed."""
        password = (stdin.readline() if stdin else one_time_password()).rstrip("\r\n")
        try:
            user = add_evaluator(name, email, password)
        except AccountError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"evaluator {user.username} created (group evaluators); log in at /labeling/login/")
        if not stdin:
            self.stdout.write(f"password: {password}\n(shown only this once: hand it over privately)")

    def _create(self, o) -> None:
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
