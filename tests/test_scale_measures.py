"""The scale bench's throughput windows and verdict lags (bench/support/scale_measures.py), on made-up samples."""
from __future__ import annotations

import pytest

from bench.support.scale_measures import cost_by_part, lags, percentile, window_rates


def test_rates_cover_the_first_and_last_tenth_of_the_pages_and_skip_start_up():
    # 5 s of start-up with no page, then 10 pages/s up to 500 pages, then 5 pages/s up to 1,000
    samples = [(float(t), 0) for t in range(6)]
    samples += [(5.0 + s, 10 * s) for s in range(1, 51)]
    samples += [(55.0 + s, 500 + 5 * s) for s in range(1, 101)]
    first, last = window_rates(samples)
    assert first == pytest.approx(10.0)
    assert last == pytest.approx(5.0)


def test_a_crawl_with_no_page_has_no_rate():
    assert window_rates([(0.0, 0), (1.0, 0)]) == (0.0, 0.0)


def test_lags_count_every_site_seen_during_the_crawl_and_the_late_ones_until_the_workers_stopped():
    first_pages = {1: 100.0, 2: 110.0, 3: 120.0, 5: 350.0}
    decided = {1: 130.0, 2: 400.0, 4: 140.0}   # site 2 after the end; 3 never; 4 has no page; 5 began after the end
    assert sorted(lags(decided, first_pages, until=300.0, stopped=500.0)) == [30.0, 290.0, 380.0]
    assert percentile([1.0, 2.0, 3.0, 4.0, 100.0], 0.95) == 100.0


def test_job_costs_are_read_per_page_in_each_fifth_of_the_crawl_and_the_drain_apart():
    # 100 pages/s for 10 s (1,000 pages): each fifth is 200 pages, reached every 2 s
    samples = [(0.0, 0)] + [(float(t), 100 * t) for t in range(1, 11)]
    spans = [("crawl_step", 1.0, 0.4),      # first fifth
             ("crawl_step", -5.0, 0.2),     # before the first page: first fifth too
             ("crawl_step", 9.5, 0.4),      # last fifth
             ("score_sites", 5.0, 1.0),     # 5 s is 500 pages: the third fifth (400-600)
             ("score_sites", 30.0, 0.6)]    # in the drain after the last sample: seconds, apart
    pages, per_page = cost_by_part(spans, samples)
    assert pages == [200] * 5
    assert per_page["crawl_step"] == pytest.approx([3.0, 0.0, 0.0, 0.0, 2.0, 0.0])  # 600 ms / 200 pages, 400 / 200
    assert per_page["score_sites"] == pytest.approx([0.0, 0.0, 5.0, 0.0, 0.0, 0.6])


def test_a_crawl_with_no_page_has_no_costs_by_part():
    assert cost_by_part([("crawl_step", 1.0, 0.5)], [(0.0, 0), (1.0, 0)]) == ([], {})
