"""The one-line evidence of a site verdict on the dashboard, from the JSON the detector and the
crawl-end combination store (console/dashboard/evidence.py, pure)."""
from console.dashboard.evidence import verdict_summary


def test_a_detector_verdict_says_what_was_read_and_seen():
    evidence = {"page": "http://www.primer.rs/", "pages": [{"url": "http://www.primer.rs/en/", "language": "en"},
                                                           {"url": "http://www.primer.rs/x", "language": None}],
                "languages": ["sr", "en"], "link_scores": [{"url": "http://www.primer.rs/en/", "score": 0.9731}]}
    assert verdict_summary(evidence) == "detector read 1 page, saw sr, en; best switch link 0.97"


def test_the_combined_verdict_adds_page_languages_pairs_and_what_decided():
    evidence = {"combined": {"page_languages": {"en": 3, "sr": 4}, "kept_pairs": 2, "decided_by": ["pages", "pairs"]},
                "detector_bilingual": None}
    assert verdict_summary(evidence) == "pages en 3, sr 4; 2 kept pairs; decided by pages + pairs"


def test_a_spent_budget_is_said_and_odd_evidence_gives_no_error():
    assert verdict_summary({"languages": ["sr"], "budget_spent": True}) == \
        "detector read 0 pages, saw sr · budget spent before every page was read"
    assert verdict_summary(None) == ""
    assert verdict_summary({"pages": "not a list", "link_scores": [3]}) == ""
