"""Rates, ETA and the progress line of a followed job (crawlweb/progress.py, crawlweb/progress_display.py;
pure, no database)."""
import io

from crawlweb.progress import Snapshot, clock, eta_seconds, per_minute
from crawlweb.progress_display import ProgressDisplay


def test_rates_are_per_minute_and_the_eta_extrapolates_the_average():
    assert per_minute(30, 15.0) == 120.0
    assert per_minute(5, 0.0) == 0.0
    assert eta_seconds(100, 400, 60.0) == 300.0
    assert eta_seconds(400, 400, 0.0) == 0.0, "done is done, even when nothing moves"
    assert eta_seconds(10, 400, 0.0) is None, "no rate, no honest guess"


def test_clock_reads_like_a_stopwatch():
    assert (clock(59.6), clock(247), clock(3909), clock(None)) == ("1:00", "4:07", "1:05:09", "?")


def test_a_snapshot_counts_its_rate_from_where_following_began():
    snapshot = Snapshot(done=150, total=400, elapsed=60.0, state="running", found={"bilingual sites": 3}, base=30)
    assert snapshot.rate == 120.0, "120 pages in the minute followed; the 30 before do not count"
    assert snapshot.plain_line() == "pages 150/400 (37%), 120.0/min, bilingual sites 3, ETA 2:05, running"


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_off_a_terminal_it_writes_a_plain_line_every_interval_and_at_each_change_of_state():
    out, now = io.StringIO(), Clock()
    display = ProgressDisplay(out, label="crawl 7", interval=10.0, terminal=False, now=now)
    for t, done, state in [(0, 0, "running"), (4, 20, "running"), (11, 50, "running"), (12, 51, "paused")]:
        now.t = t
        display.show(Snapshot(done=done, total=100, elapsed=t, state=state))
    display.close(Snapshot(done=51, total=100, elapsed=13, state="paused"))
    lines = out.getvalue().splitlines()
    assert [line.split(", ")[0] for line in lines] == ["crawl 7: pages 0/100 (0%)", "crawl 7: pages 50/100 (50%)",
                                                       "crawl 7: pages 51/100 (51%)", "crawl 7: pages 51/100 (51%)"]
    assert "\r" not in out.getvalue(), "a log gets whole lines, no carriage returns"


def test_on_a_terminal_it_redraws_one_line_with_bar_rate_found_and_eta():
    out = io.StringIO()
    display = ProgressDisplay(out, label="crawl 7", terminal=True)
    display.show(Snapshot(done=10, total=40, elapsed=30.0, state="running", found={"bilingual sites": 2}))
    display.show(Snapshot(done=20, total=40, elapsed=60.0, state="running", found={"bilingual sites": 3}))
    drawn = out.getvalue()
    assert drawn.count("\r") >= 2, "the same line is redrawn"
    last = drawn.split("\r")[-1]
    assert "20/40 pages" in last and "20.0/min" in last and "bilingual sites 3" in last and "ETA 1:00" in last
    display.close(Snapshot(done=40, total=40, elapsed=90.0, state="finished", found={"bilingual sites": 4}))
    assert out.getvalue().endswith("crawl 7: pages 40/40 (100%), 26.7/min, bilingual sites 4, ETA 0:00, finished\n")
