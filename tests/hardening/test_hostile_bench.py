"""bench/support/hostile_cases.py's quick run meets Issue 18's targets: every bad input of the subset is
answered with a clear error, nothing is lost, no injected script runs in Chromium in any view of crawled
text, no refused address is reached, and the crawl process stays under 500 MB."""
from bench.support import hostile_cases


def test_the_quick_hostile_cases_meet_the_targets():
    result = hostile_cases.run(quick=True)
    failed = [case for case in result["cases"] if not case["ok"]]
    assert failed == []
    assert result["bad_inputs"] >= 30
    assert result["lost"] == 0 and result["xss_executed"] == 0 and result["ssrf"] == 0
    assert 0 < result["peak_rss_mb"] < 500
    views = [case for case in result["cases"] if case["name"].startswith("xss: ")]
    assert len(views) >= 20  # the views of crawled text were really opened
    assert any("shown as text" in case["detail"] for case in views)  # with the payloads on screen
