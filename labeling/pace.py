"""An evaluator's pace: judgments per minute of working time. Pure.

Working time is the sum of the gaps between consecutive judgments, each gap capped at
``BREAK_SECONDS``: a longer gap is a break (lunch, a closed laptop), and counting it whole would
make a careful evaluator look slow. The first judgment has no gap before it; the time the judging
view measured for it (item shown → verdict) stands in when known.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Sequence

BREAK_SECONDS = 300.0


@dataclass(frozen=True)
class Pace:
    judgments: int
    working_seconds: float
    per_minute: float | None  # None when there is no working time to divide by


def pace(timestamps: Sequence[datetime], first_seconds: float | None = None,
         break_seconds: float = BREAK_SECONDS) -> Pace:
    stamps = sorted(timestamps)
    working = min(first_seconds, break_seconds) if stamps and first_seconds else 0.0
    for earlier, later in zip(stamps, stamps[1:]):
        working += min((later - earlier).total_seconds(), break_seconds)
    per_minute = len(stamps) / (working / 60.0) if working > 0 else None
    return Pace(len(stamps), working, per_minute)
