"""One line that says why a site was judged bilingual, from a SiteVerdict's evidence JSON.

Pure (no Django): the evidence is whatever the BS Detector (frontier/detector_job.py) and the
crawl-end combination (evaluation/services/site_verdicts.py) stored, so every key is optional here.
"""
from __future__ import annotations


def _list(evidence: dict, key: str) -> list:
    value = evidence.get(key)
    return value if isinstance(value, list) else []


def _detector_part(evidence: dict) -> str | None:
    pages, languages = _list(evidence, "pages"), _list(evidence, "languages")
    if not pages and not languages:
        return None
    read = sum(1 for page in pages if isinstance(page, dict) and page.get("language"))
    scores = [link.get("score", 0) for link in _list(evidence, "link_scores") if isinstance(link, dict)]
    part = f"detector read {read} page{'s' if read != 1 else ''}"
    if languages:
        part += f", saw {', '.join(str(language) for language in languages)}"
    if scores:
        part += f"; best switch link {max(scores):.2f}"
    return part


def _combined_part(combined: dict) -> str | None:
    parts = []
    languages = combined.get("page_languages") or {}
    if languages:
        parts.append("pages " + ", ".join(f"{language} {count}" for language, count in languages.items()))
    if combined.get("kept_pairs"):
        parts.append(f"{combined['kept_pairs']} kept pair{'s' if combined['kept_pairs'] != 1 else ''}")
    if combined.get("decided_by"):
        parts.append("decided by " + " + ".join(combined["decided_by"]))
    return "; ".join(parts) or None


def verdict_summary(evidence: dict | None) -> str:
    """'detector read 2 pages, saw sr, en; best switch link 0.97 · pages sr 4, en 3; 2 kept pairs; …'."""
    if not isinstance(evidence, dict):
        return ""
    parts = [_detector_part(evidence)]
    if isinstance(evidence.get("combined"), dict):
        parts.append(_combined_part(evidence["combined"]))
    if evidence.get("budget_spent"):
        parts.append("budget spent before every page was read")
    return " · ".join(part for part in parts if part)
