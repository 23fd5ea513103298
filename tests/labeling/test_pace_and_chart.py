"""Pace (judgments per minute of working time) and the precision chart's coordinates (database-free)."""
from datetime import datetime, timedelta

import pytest

from labeling.pace import pace
from labeling.report_chart import LEFT, RIGHT_MARGIN, WIDTH, ChartRow, precision_chart

T0 = datetime(2025, 1, 6, 9, 0)


def test_pace_caps_breaks_at_five_minutes():
    # gaps 30 s, 3600 s → 300 s, 30 s: 360 s of work for 4 judgments → 4/6 = 0.667 per minute
    stamps = [T0 + timedelta(seconds=s) for s in (0, 30, 3630, 3660)]
    result = pace(stamps)
    assert result.working_seconds == 360.0 and result.per_minute == pytest.approx(4 / 6)


def test_the_first_judgments_own_time_counts_when_known():
    assert pace([T0], first_seconds=15.0).per_minute == pytest.approx(4.0)


def test_no_working_time_gives_no_pace():
    assert pace([]).per_minute is None
    assert pace([T0]).per_minute is None


def test_chart_scales_bars_and_whiskers_to_the_axis():
    span = WIDTH - RIGHT_MARGIN - LEFT
    chart = precision_chart([ChartRow("kept", 0.5, 0.25, 0.75, 8, "/x"), ChartRow("empty", None, None, None, 0, "/y"),
                             ChartRow("Stratified estimate", 1.0, 0.9, 1.0, 8, "/z", overall=True)])
    assert [b.label for b in chart.bars] == ["kept", "Stratified estimate"]  # nothing to draw for "empty"
    kept, overall = chart.bars
    assert kept.width == pytest.approx(span / 2)
    assert (kept.low_x, kept.high_x) == (pytest.approx(LEFT + span / 4), pytest.approx(LEFT + 3 * span / 4))
    assert overall.overall and overall.y > kept.y
    assert "50.0% (95 % 25.0%–75.0%), 8 judged" in kept.title
    assert precision_chart([]).empty
