"""The RQ worker class the project runs (settings.RQ["WORKER_CLASS"]).

RQ's default worker forks a fresh work horse for every job. A crawl step is a short job that
needs heavy state: the Hunspell dictionaries, the language identifier's model, the public-suffix
tree, the HTTP connection pool, the parsed robots.txt files, and for the classifier strategies
scikit-learn (loaded by the first step that needs it). A fresh fork rebuilt all of it for every step (about 2.7 s of a 5 s step, measured with
py-spy). This worker runs jobs in its own process and loads that state once, at start.

The price of not forking: a job that crashes the interpreter takes the worker with it. Jobs are
idempotent and leases expire, so nothing is lost (tests/integration/test_worker_killed.py), and
a supervisor restarts the worker like any other service.
"""
from __future__ import annotations

import logging

from rq import SimpleWorker

from crawlweb.crawler.urls import registrable_domain
from crawlweb.language.dictionaries import MissingDictionary, spell_checker
from crawlweb.language.identify import identify_language

log = logging.getLogger(__name__)
WARM_UP_TEXT = "Ovo je kratka rečenica na srpskom jeziku. This is a short English sentence."


def warm_up() -> None:
    """Load once what every crawl step would otherwise load again."""
    # Not the strategies: the classifier strategy imports scikit-learn (1.5 s) when a crawl uses it.
    for code in ("sr", "en"):
        try:
            spell_checker(code)
        except MissingDictionary as error:  # reported again, clearly, by the job that needs it
            log.warning("%s", error)
    identify_language(WARM_UP_TEXT)
    registrable_domain("www.example.rs")


class CrawlWorker(SimpleWorker):
    """An RQ worker that keeps its process (and what it loaded) from one job to the next."""

    def work(self, *args, **kwargs):
        warm_up()
        return super().work(*args, **kwargs)
