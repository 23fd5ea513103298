"""The keys of the judging card, per kind of item: one key judges and advances."""
from __future__ import annotations

from typing import NamedTuple

from labeling.models import ErrorCategory, Verdict


class Key(NamedTuple):
    key: str
    verdict: str
    category: str
    label: str
    tone: str  # the button's colour: yes, no, partial, skip


QUESTIONS = {"pairs": "Are these two pages translations of each other?",
             "sites": "Is this site bilingual in the crawl's language pair?",
             "links": "Does this link lead to this page's translation?"}

_PAIR_ERRORS = [Key(str(i), Verdict.NO, category.value, category.label, "no")
                for i, category in enumerate(ErrorCategory, start=1)]

KEYS = {
    "pairs": [Key("y", Verdict.YES, "", "Parallel", "yes"), Key("n", Verdict.NO, "", "Not parallel", "no"),
              *_PAIR_ERRORS, Key("p", Verdict.PARTIAL, "", "Partial", "partial"),
              Key("s", Verdict.SKIP, "", "Skip", "skip")],
    "sites": [Key("y", Verdict.YES, "", "Bilingual", "yes"), Key("n", Verdict.NO, "", "Not bilingual", "no"),
              Key("s", Verdict.SKIP, "", "Skip", "skip")],
    "links": [Key("y", Verdict.YES, "", "Leads to its translation", "yes"),
              Key("n", Verdict.NO, "", "Does not", "no"), Key("s", Verdict.SKIP, "", "Skip", "skip")],
}


def key_for(what: str, verdict: str, category: str) -> Key | None:
    """The key that gives this answer, or None when the answer is not one of this kind's."""
    for key in KEYS[what]:
        if key.verdict == verdict and key.category == category:
            return key
    return None
