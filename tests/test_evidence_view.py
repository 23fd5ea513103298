"""A verdict's whole evidence laid out for reading (console/dashboard/evidence_view.py; pure)."""
from console.dashboard.evidence_view import evidence_entries


def test_known_keys_get_labels_records_become_tables_and_nested_records_nest():
    evidence = {"page": "http://www.primer.rs/", "languages": ["sr", "en"],
                "pages": [{"url": "http://www.primer.rs/en/", "score": 0.98213, "language": "en"},
                          {"url": "http://www.primer.rs/x", "language": None, "not_read": "budget"}],
                "combined": {"page_languages": {"sr": 4, "en": 3}, "decided_by": ["detector", "pairs"],
                             "pair_examples": [["http://a/", "http://a/en/"]]},
                "budget_spent": True}
    entries = {e["label"]: e for e in evidence_entries(evidence)}
    assert entries["Input page the detector read"]["text"] == "http://www.primer.rs/"
    assert entries["Languages seen"]["text"] == "sr, en"
    pages = entries["Pages the switch links led to"]
    assert pages["columns"] == ["URL", "Score", "Language", "Not read"]
    assert pages["rows"] == [["http://www.primer.rs/en/", "0.9821", "en", "–"], ["http://www.primer.rs/x", "–", "–", "budget"]]
    combined = {e["label"]: e for e in entries["Verdict at the crawl's end (detector, pages, pairs)"]["entries"]}
    assert [(e["label"], e["text"]) for e in combined["Stored pages per language"]["entries"]] == [("sr", "4"), ("en", "3")]
    assert combined["Decided by"]["text"] == "detector, pairs"
    assert combined["Examples of kept pairs"]["rows"] == [["http://a/", "http://a/en/"]]
    assert entries["Budget spent before every page was read"]["text"] == "yes"


def test_unknown_keys_are_shown_under_their_own_name_and_odd_evidence_gives_no_error():
    assert evidence_entries({"new_measure": 3})[0] == {"label": "New measure", "kind": "text", "text": "3"}
    assert evidence_entries(None) == [] and evidence_entries("") == []
    assert evidence_entries("a string")[0]["text"] == "a string"
    deep = {"a": {"b": {"c": {"d": {"e": 1}}}}}
    level = evidence_entries(deep)[0]
    while level["kind"] == "entries":
        level = level["entries"][0]
    assert level["text"] == '{"e": 1}', "very deep records end as JSON, not as endless nesting"
