"""A site verdict's whole evidence, laid out for reading: each key a labelled entry, lists of records
as tables, nested records as nested entries.

Pure (no Django). The evidence is whatever the BS Detector (frontier/detector_job.py) and the
crawl-end combination (evaluation/services/site_verdicts.py) stored, so any key may be missing and keys this
module does not know are shown under their own name, never dropped.
"""
from __future__ import annotations

import json

LABELS = {
    "page": "Input page the detector read",
    "page_language": "Language of the input page",
    "pages": "Pages the switch links led to",
    "languages": "Languages seen",
    "link_scores": "Best language-switch link scores (Link Predictor)",
    "candidates": "Links the detector followed",
    "min_likelihood": "Minimum link likelihood",
    "budget_spent": "Budget spent before every page was read",
    "backlinks_found": "Backlinks found",
    "backlinks_internal": "Backlinks from the site itself",
    "combined": "Verdict at the crawl's end (detector, pages, pairs)",
    "detector_bilingual": "Detector said bilingual",
    "detector": "Detector said bilingual",
    "page_languages": "Stored pages per language",
    "pages_bilingual": "Pages alone say bilingual",
    "kept_pairs": "Kept pairs",
    "pair_examples": "Examples of kept pairs",
    "decided_by": "Decided by",
}
MAX_DEPTH = 3


def column_of(key: str) -> str:
    """A table's column: always a field name of the stored records."""
    return "URL" if key == "url" else key.replace("_", " ").capitalize()


def label_of(key: str) -> str:
    """A known key's label; an unknown field name humanized; a data key (a language code) as it is."""
    if key in LABELS:
        return LABELS[key]
    return key.replace("_", " ").capitalize() if "_" in key else key


def _cell(value) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _table(records: list) -> dict:
    if all(isinstance(r, dict) for r in records):
        columns: list[str] = []
        for record in records:
            columns += [key for key in record if key not in columns]
        return {"columns": [column_of(c) for c in columns],
                "rows": [[_cell(record.get(c)) for c in columns] for record in records]}
    return {"columns": [], "rows": [[_cell(v) for v in r] if isinstance(r, (list, tuple)) else [_cell(r)]
                                    for r in records]}


def entry(key: str, value, depth: int = 0) -> dict:
    """{label, kind: text | table | entries, …} of one evidence key."""
    label = label_of(key)
    if isinstance(value, dict) and depth < MAX_DEPTH:
        return {"label": label, "kind": "entries", "entries": [entry(k, v, depth + 1) for k, v in value.items()]}
    if isinstance(value, list) and value and all(isinstance(v, (dict, list, tuple)) for v in value):
        return {"label": label, "kind": "table", **_table(value)}
    if isinstance(value, list):
        return {"label": label, "kind": "text", "text": ", ".join(_cell(v) for v in value) or "–"}
    return {"label": label, "kind": "text", "text": _cell(value)}


def evidence_entries(evidence) -> list[dict]:
    if not isinstance(evidence, dict):
        return [] if evidence in (None, "") else [entry("evidence", evidence)]
    return [entry(key, value) for key, value in evidence.items()]
