"""Which deep-guess forms are still worth a request in a crawl.

A deep guess is made with a form, the pattern ⟨source unit, target unit⟩ it rewrote the page's URL
with (⟨ε, en⟩: /x → /en/x). On a national web most sites show one language, and each of them is
guessed a few counterparts that almost never exist: in the 100,000-page scale run, 100,576 guesses of
which 0.02 % existed, each a HEAD request, the largest cost of the score queue. A form that the
crawl's own checks found missing nearly every time, over many tries, stops being checked; one guess
in ``explore_every`` still is, so a form that starts to work later in the crawl (a bilingual region
of the web) is credited again. A small crawl never reaches ``min_tries`` of one form: nothing is
skipped there.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass

Form = tuple[str, str]  # (source unit, target unit)


@dataclass(frozen=True)
class FormRecord:
    tries: int  # guesses of the form checked (by a request, or by the crawl fetching the URL)
    hits: int   # of them, the guessed page existed


def is_discredited(record: FormRecord | None, min_tries: int, min_rate: float) -> bool:
    """Tried at least ``min_tries`` times and found at a rate of at most ``min_rate`` (0 tries: never)."""
    if record is None or min_tries <= 0 or record.tries < min_tries:
        return False
    return record.hits <= min_rate * record.tries


def explores_url(url: str, explore_every: int) -> bool:
    """Whether a guess of a discredited form is stored and checked anyway: one URL in ``explore_every``,
    by a stable hash of the URL (the same answer when the guess is made and when it is checked)."""
    return explore_every > 0 and zlib.crc32(url.encode("utf-8", "surrogatepass")) % explore_every == 0


def worth_asking(form: Form, url: str, records: dict[Form, FormRecord], min_tries: int, min_rate: float,
                 explore_every: int) -> bool:
    """Whether a guess is worth its request: its form is not discredited, or its URL is explored. The
    checks settle the others without a request; a one-language site does not even store them (only a
    request could confirm its guesses, and a row only ever settled unasked costs a write and a check)."""
    return not is_discredited(records.get(form), min_tries, min_rate) or explores_url(url, explore_every)


def form_label(form: Form) -> str:
    return f"⟨{form[0] or 'ε'}, {form[1] or 'ε'}⟩"
